// The form without JavaScript under generated posts (issue 13 item 1; hostile input generated, not listed): whatever
// a browser, or anyone, sends to POST /customer/{fid}/{id}, the answer is a page and never a 5xx; a response is
// stored exactly when the page thanks the customer, with the answers as they were typed; a page sent back shows
// each typed answer in its box again; and no upload is left unclaimed. Examples: html-submit.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Submission } from '#common/submissions.ts';
import { HOSTILE_STRINGS } from '../../../testing/fuzz-values.ts';
import { FUZZ_SETTINGS } from '../../../testing/test-app.ts';
import { PDF, PNG } from '../../../testing/test-files.ts';
import { form, owner, setUpHtmlForm, unescapeHtml, type Part } from './test-fixture.ts';

const { as, countOf, follow, postOnly, unclaimedOf } = setUpHtmlForm();

/** FUZZ_RUNS=1000 for a deep run, as src/server/fuzz.test.ts. */
const RUNS = Number(FUZZ_SETTINGS.runs ?? 60);

const PLAUSIBLE: Record<string, string> = {
  text: 'Priya Sharma',
  email: 'priya@example.com',
  tel: '+91 98765 43210',
  date: '2026-12-01',
  password: 'blue tiger 42',
  textarea: 'Late arrival,\nabout 11 pm',
};

/** What a customer might type into a box of this type, or anything else: hostile strings, any characters. */
const typed = (type = 'text') =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(PLAUSIBLE[type] ?? 'Priya Sharma') },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.string({ unit: 'grapheme-ascii', maxLength: 10 }).map((s) => ` ${s} `),
  );
/** Left blank now and then. */
const maybe = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: undefined, freq: 6 });

const FILES = {
  pdf: { filename: 'passport.pdf', content: PDF },
  'png as pdf': { filename: 'photo.pdf', content: PNG },
  text: { filename: 'notes.txt', content: Buffer.from('not a document') },
  'no name': { filename: '', content: Buffer.alloc(0) },
} as const;

/** One post: answers by question (page order), the token, the file, the honeypot, and parts no question asked for. */
function postArb() {
  const option = (f: { options: { value: string }[] }) =>
    fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...f.options.map((o) => o.value)) }, typed());
  const text = form.textField.map((f) => maybe(typed(f.type)).map((v) => [f._id, v] as const));
  const choice = [...form.selectField, ...form.radioField].map((f) =>
    maybe(option(f)).map((v) => [f._id, v] as const),
  );
  const checks = form.checkField.map((f) =>
    fc.array(option(f), { maxLength: 3 }).map((values) => [f._id, values] as const),
  );
  return fc.record({
    text: fc.tuple(...text),
    choice: fc.tuple(...choice),
    checks: fc.tuple(...checks),
    token: fc.oneof(
      { weight: 12, arbitrary: fc.constant('fresh') },
      fc.constantFrom('', 'short', 'not a token!', 'x'.repeat(101), '\u0000'.repeat(8)),
    ),
    file: fc.oneof(
      { weight: 6, arbitrary: fc.constant('pdf' as const) },
      fc.constantFrom(...(Object.keys(FILES) as (keyof typeof FILES)[]), 'none' as const),
    ),
    honeypot: fc.oneof({ weight: 9, arbitrary: fc.constant('') }, fc.constant('https://spam.example')),
    extra: fc.array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('__proto__', 'constructor', 'token', 'website', 'a\u0000b', ''),
          fc.string(),
        ),
        typed(),
      ),
      { maxLength: 2 },
    ),
    extraFirst: fc.boolean(),
  });
}
type Post = ReturnType<ReturnType<typeof postArb>['generate']>['value'];

/** The text as it arrives in UTF-8: a lone surrogate cannot be encoded, and a browser sends U+FFFD for it. */
const onWire = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

let serial = 0;
function partsOf(p: Post): { parts: Part[]; bot: boolean } {
  const token = p.token === 'fresh' ? `page-token-${Date.now()}-${serial++}` : p.token;
  const answers: Part[] = [
    ...p.text.flatMap(([id, v]) => (v === undefined ? [] : [[id, v] as Part])),
    ...p.choice.flatMap(([id, v]) => (v === undefined ? [] : [[id, v] as Part])),
    ...p.checks.flatMap(([id, values]) => values.map((v) => [id, v] as Part)),
    ...(p.file === 'none'
      ? []
      : form.fileField.map((f) => [f._id, FILES[p.file as keyof typeof FILES]] as Part)),
    ['website', p.honeypot],
  ];
  const extra = p.extra.map(([name, v]) => [name, v] as Part);
  const parts: Part[] = [['token', token], ...answers];
  const all = p.extraFirst ? [...extra, ...parts] : [...parts, ...extra];
  // The honeypot is the first field of its name, wherever it came.
  const honeypot = all.find(([name]) => name === 'website')?.[1];
  return { parts: all, bot: typeof honeypot === 'string' && onWire(honeypot).trim() !== '' };
}

/**
 * The value attribute of the input for this question as the page sends it (a browser may then sanitise it): its
 * box on the first step, or the hidden field that carries it on the files step (none for an answer not sent).
 */
function valueIn(html: string, id: string): string | undefined {
  const filesStep = html.includes('<p class="fill-step">Step 2 of 2 · Files</p>');
  const tag = filesStep
    ? new RegExp(`<input type="hidden" name="${id}"[^>]*>`).exec(html)?.[0]
    : new RegExp(`<input[^>]*\\bid="q-${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) return filesStep ? '' : undefined;
  const raw = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '';
  return unescapeHtml(raw);
}

async function newestSubmission(): Promise<Submission | undefined> {
  const list = await as(owner).get(`/api/formSubmissions/${form._id}`);
  const id = list.json<{ items: { _id: string }[] }>().items[0]?._id;
  if (!id) return undefined;
  return (await as(owner).get(`/api/forms/${id}`)).json<Submission>();
}

describe('POST /customer/{fid}/{id} with generated posts', () => {
  it('answers every post with a page, stores exactly what it thanks for as typed, and keeps typed answers on a page sent back', async () => {
    const seen = new Map<number | string, number>();
    await fc.assert(
      fc.asyncProperty(postArb(), async (p) => {
        const { parts, bot } = partsOf(p);
        const before = await countOf(form);
        // Post/redirect/get: the answer is a 303 to the thank-you or to the page to fix, or a page that refuses.
        const answer = await postOnly(parts);
        const res = await follow(answer);
        const where = answer.headers.location ?? '';
        const outcome =
          answer.statusCode !== 303 ? answer.statusCode : where.endsWith('/sent') ? 'sent' : 'back';
        seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.headers['content-type'], `${res.statusCode} ${res.body.slice(0, 300)}`).toMatch(
          /^text\/html/,
        );
        const thanked = outcome === 'sent';
        if (thanked) expect(res.body).toContain('Submitted successfully');
        // A bot's post is thanked like any other and stored nowhere.
        expect((await countOf(form)) - before).toBe(thanked && !bot ? 1 : 0);
        expect(await unclaimedOf(form)).toBe(0);

        if (thanked && !bot) {
          const stored = await newestSubmission();
          for (const [id, v] of p.text) {
            const name = form.textField.find((f) => f._id === id)?.name ?? '';
            // Blank answers are left out; the rest stored trimmed, as the React page sends them.
            expect(stored?.textObject[name]).toBe(
              v === undefined ? undefined : onWire(v).trim() || undefined,
            );
          }
        }
        if (outcome === 'back') {
          // Every typed answer kept; a NUL, which cannot be stored, is shown as U+FFFD and told at its question.
          for (const [id, v] of p.text) {
            expect(valueIn(res.body, id)).toBe(onWire(v ?? '').replaceAll('\u0000', '\ufffd'));
          }
          if (p.text.some(([, v]) => v?.includes('\u0000'))) {
            expect(res.body).toContain(
              'This answer contains a NUL character (U+0000), which cannot be stored.',
            );
          }
        }
      }),
      { numRuns: RUNS, ...(FUZZ_SETTINGS.seed ? { seed: Number(FUZZ_SETTINGS.seed) } : {}) },
    );
    // The generator reaches every outcome, not only refusals.
    expect([...seen.keys()]).toEqual(expect.arrayContaining(['sent', 400, 'back']));
  }, 600_000);
});
