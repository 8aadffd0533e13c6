// The form posted without JavaScript is judged like the JSON submit (docs/decisions/042-pages-and-conditions.md): an
// answer to a question its other answers skip is refused and nothing stored; without it, the response is stored
// with the pages it went through.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { NOT_APPLYING } from '../ingest/answers.ts';
import { idOf, owner, setUpHtmlForm, t, tokenIn } from './test-fixture.ts';

const { as, countOf, makeForm, page, post } = setUpHtmlForm();

/** Do you need a room; then, on a page only for those who do, how many nights. */
async function branchingForm(): Promise<Form> {
  const f = await makeForm('Rooms', [
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

describe('POST /customer/{fid}/{id} on a form with pages', () => {
  it('refuses an answer its other answers skip, and stores the response without it, with its path', async () => {
    const f = await branchingForm();
    const stay = idOf(f, 'Do you need a room?');
    const nights = idOf(f, 'How many nights?');
    const refused = await post(
      [
        ['token', tokenIn((await page(f)).body)],
        [stay, 'No'],
        [nights, '2'],
      ],
      f,
    );
    // Sent back (through its redirect) to the page to fix, naming the answer.
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain(NOT_APPLYING);
    expect(await countOf(f)).toBe(0);

    const res = await post(
      [
        ['token', tokenIn((await page(f)).body)],
        [stay, 'No'],
        [nights, ''],
      ],
      f,
    );
    expect(res.statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
    const [row] = await t.app.db.query<{ path: string[] }>(
      'select path from submissions where form_id = $1',
      [f._id],
    );
    expect(row?.path).toEqual(['start']);
  });
});
