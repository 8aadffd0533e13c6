// The page moves of a form with page breaks under generated posts (issue 38, item 5; hostile input generated, not
// listed): whatever `go` and `page` the address names and whatever the body holds, the answer is a page, never a 5xx,
// and a post that only moves (`go=next` or `go=back`) stores nothing. Examples: html-pages.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { HOSTILE_STRINGS } from '../../../testing/fuzz-values.ts';
import { FUZZ_SETTINGS } from '../../../testing/test-app.ts';
import { owner, setUpHtmlForm, type Part } from './test-fixture.ts';

const { as, countOf, follow, makeForm, postOnly } = setUpHtmlForm();

/** FUZZ_RUNS=1000 for a deep run, as src/server/http/fuzz.test.ts. */
const RUNS = Number(FUZZ_SETTINGS.runs ?? 60);

async function twoPages(): Promise<Form> {
  const f = await makeForm('Generated pages', [
    { id: 3, name: 'Do you need a room?', options: [{ value: 'Yes' }, { value: 'No' }], required: true },
    { id: 1, name: 'How many nights?', type: 'text', required: true },
  ]);
  const [stay, nights] = f.items;
  const condition = { question: stay?._id, op: 'is', value: 'Yes' };
  const items = [stay, { kind: 'page', _id: 'room', title: 'Your room', condition }, nights];
  const res = await as(owner).put(`/api/v1/form/${f._id}/items`, { items, version: f.version });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Form>();
}

const anyText = fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 200 }));

describe('the page moves of a form with page breaks, under generated posts', () => {
  it('answers every move with a page, never a 5xx, and a move stores nothing', async () => {
    const f = await twoPages();
    const [stay, room, nights] = f.items.map((i) => i._id);
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constantFrom('next', 'back', 'files', 'answers', undefined), anyText),
        fc.oneof(fc.constantFrom(room, 'start', stay, undefined), anyText),
        fc.array(
          fc.tuple(fc.constantFrom(stay ?? '', nights ?? '', 'draft', 'token', 'website', 'x'), anyText),
          { maxLength: 4 },
        ),
        async (go, pageId, parts) => {
          const before = await countOf(f);
          const query = new URLSearchParams();
          if (go !== undefined) query.set('go', go);
          if (pageId !== undefined) query.set('page', pageId);
          const res = await postOnly(parts as Part[], f, `?${query.toString()}`);
          expect(res.statusCode, res.body).toBeLessThan(500);
          const shown = await follow(res);
          expect(shown.statusCode, shown.body).toBeLessThan(500);
          expect(shown.headers['content-type']).toMatch(/^text\/html/);
          if (go === 'next' || go === 'back') expect(await countOf(f)).toBe(before);
        },
      ),
      { numRuns: RUNS, ...(FUZZ_SETTINGS.seed ? { seed: Number(FUZZ_SETTINGS.seed) } : {}) },
    );
  });
});
