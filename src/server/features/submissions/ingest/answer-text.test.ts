import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { truncateText } from '#common/unstorable-text.ts';
import { DEFAULT_RATE_LIMITS } from '../../../runtime/config.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../../testing/test-app.ts';

// Issue 10: a valid answer must be stored as sent, whatever script it is in and however close to a limit it is.
// The limits count code points (zod 4.6 does; an emoji is one), the contact line cut counts UTF-16 units.

let t: TestApp;
const as = ownerRequests(() => t);
let token: string;
let ownerId: string;
/** A text question (the contact line) and a paragraph. */
let form: Form;
/** A paragraph alone, so the contact line is cut from it. */
let paragraphOnly: Form;

async function buildForm(fields: { name: string; type: string }[]): Promise<Form> {
  let f = (await as(token).post('/api/v1/length', {})).json<Form>();
  for (const field of fields) {
    const res = await as(token).post(`/api/text/${f._id}`, { id: 1, required: false, ...field });
    f = res.json<Form>();
  }
  return f;
}

beforeAll(async () => {
  // Hundreds of submissions from one test address: the per-address limit is not what is tested here.
  t = await createTestApp({
    rateLimits: { ...DEFAULT_RATE_LIMITS, submissionsPerIp: { max: 1_000_000, windowMs: 60_000 } },
  });
  ({ token, id: ownerId } = await signUpOwner(t));
  form = await buildForm([
    { name: 'Short', type: 'text' },
    { name: 'Long', type: 'textarea' },
  ]);
  paragraphOnly = await buildForm([{ name: 'Story', type: 'textarea' }]);
});
afterAll(async () => {
  await t?.close();
});

const submit = (f: Form, textObject: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${ownerId}`,
    payload: { formStructureId: f._id, textObject },
  });
const read = async (id: string) => (await as(token).get(`/api/forms/${id}`)).json<Submission>();
const listed = async (f: Form) =>
  (await as(token).get(`/api/formSubmissions/${f._id}?limit=1`)).json<{
    items: { _id: string; contact: string }[];
  }>().items[0];

/** Submits, then checks the owner reads back exactly what was sent and the list shows it. */
async function expectStored(f: Form, answers: Record<string, string>): Promise<void> {
  const res = await submit(f, answers);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const { _id } = res.json<{ _id: string }>();
  const stored = await read(_id);
  for (const [name, sent] of Object.entries(answers)) {
    const back = stored.textObject[name] ?? '';
    expect(Buffer.from(back, 'utf8').equals(Buffer.from(sent, 'utf8')), name).toBe(true);
  }
  const first = await listed(f);
  expect(first?._id).toBe(_id);
  expect(first?.contact).toBe(truncateText(Object.values(answers)[0] ?? '', 120));
}

async function expectRefused(f: Form, answers: Record<string, string>, question: string): Promise<void> {
  const res = await submit(f, answers);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
  expect(res.json().error.message).toMatch(new RegExp(`^${question}: `));
}

// Pieces from several scripts: surrogate pairs, combining marks, a ZWJ family, right-to-left text with its marks,
// and characters JSON has to escape.
const PIECES = [
  'a',
  'é',
  'e\u0301',
  '😀',
  '👩‍👩‍👧',
  '🇮🇳',
  'مرحبا',
  'שלום',
  '\u200f',
  '\u202e',
  'ह',
  'क्षि',
  '中文',
  ' ',
  '\n',
  '"',
  '\\',
  '\u0001',
];
/**
 * A text of exactly `characters` code points (what the limits count, as zod does) made of `pieces`, starting and
 * ending with a letter (answers are trimmed). The cut may split a ZWJ sequence or a mark from its letter: still text.
 */
function fit(pieces: string[], characters: number): string {
  const points = ['x'];
  for (let i = 0; points.length < characters - 1; i++) points.push(...(pieces[i % pieces.length] || 'a'));
  return [...points.slice(0, characters - 1), 'z'].join('');
}
const length = (text: string) => [...text].length;
const EMOJI = (units: number) => fit(['😀'], units);

describe(`answers in any script at every length boundary on ${TEST_ENGINE}`, () => {
  it('stores a paragraph of 119 a and 😀b whole, and lists it cut before the emoji', async () => {
    const story = `${'a'.repeat(119)}😀b`;
    await expectStored(paragraphOnly, { Story: story });
    expect((await listed(paragraphOnly))?.contact).toBe('a'.repeat(119));
    for (let before = 116; before <= 121; before++) {
      await expectStored(paragraphOnly, { Story: `${'a'.repeat(before)}😀b` });
      await expectStored(form, { Short: `${'م'.repeat(before)}👩‍👩‍👧e\u0301` });
    }
  });

  it('stores emoji, combining marks, ZWJ sequences and right-to-left text just under and at each limit', async () => {
    const samples: [string, (n: number) => string][] = [
      ['emoji', EMOJI],
      ['combining', (n) => fit(['e\u0301'], n)],
      ['zwj', (n) => fit(['👩‍👩‍👧'], n)],
      ['arabic', (n) => fit(['مرحبا ', '\u200f'], n)],
      ['hebrew', (n) => fit(['שלום ', '\u202e'], n)],
      ['mixed', (n) => fit(PIECES, n)],
    ];
    for (const [, make] of samples) {
      for (const short of [TEXT_ANSWER_MAX - 1, TEXT_ANSWER_MAX, 119, 120, 121]) {
        for (const long of [LONG_TEXT_ANSWER_MAX - 1, LONG_TEXT_ANSWER_MAX]) {
          await expectStored(form, { Short: make(short), Long: make(long) });
        }
      }
    }
  });

  it('refuses an answer one unit over its limit with 400 naming the question', async () => {
    for (const make of [EMOJI, (n: number) => fit(PIECES, n), (n: number) => 'a'.repeat(n)]) {
      await expectRefused(form, { Short: make(TEXT_ANSWER_MAX + 1), Long: 'fine' }, 'Short');
      await expectRefused(form, { Short: 'fine', Long: make(LONG_TEXT_ANSWER_MAX + 1) }, 'Long');
    }
  });

  it('stores every generated mixed-script answer around the limits, or refuses it with 400 naming it', async () => {
    const around = (max: number) => fc.integer({ min: max - 3, max: max + 2 });
    const text = (lengths: fc.Arbitrary<number>) =>
      fc
        .tuple(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 12 }), lengths)
        .map(([pieces, n]) => fit(pieces, n));
    await fc.assert(
      fc.asyncProperty(
        text(fc.oneof(around(TEXT_ANSWER_MAX), around(120))),
        text(around(LONG_TEXT_ANSWER_MAX)),
        async (short, long) => {
          const answers = { Short: short, Long: long };
          if (length(short) > TEXT_ANSWER_MAX) return expectRefused(form, answers, 'Short');
          if (length(long) > LONG_TEXT_ANSWER_MAX) return expectRefused(form, answers, 'Long');
          return expectStored(form, answers);
        },
      ),
      { numRuns: 60 },
    );
  });
});
