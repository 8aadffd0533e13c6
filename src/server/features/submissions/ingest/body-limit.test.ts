import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG_TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../../testing/test-app.ts';
import { SUBMISSION_BODY_LIMIT } from './body-limit.ts';

// Issue 10: seven full paragraphs were refused with 413 by the 64 KiB limit every route shares.

let t: TestApp;
const as = ownerRequests(() => t);
let token: string;
let ownerId: string;
let form: Form;
const PARAGRAPHS = 30;

beforeAll(async () => {
  t = await createTestApp();
  ({ token, id: ownerId } = await signUpOwner(t));
  form = (await as(token).post('/api/v1/length', {})).json<Form>();
  for (let i = 0; i < PARAGRAPHS; i++) {
    form = (
      await as(token).post(`/api/text/${form._id}`, {
        id: 1,
        name: `Paragraph ${i + 1}`,
        type: 'textarea',
        required: false,
      })
    ).json<Form>();
  }
});
afterAll(async () => {
  await t?.close();
});

/** A full paragraph of 3- and 4-byte characters (Devanagari, emoji, Arabic), LONG_TEXT_ANSWER_MAX code points. */
const paragraph = (i: number) =>
  ['ह', '😀', 'م', 'क', '👍']
    .flatMap((c, j) => Array<string>(LONG_TEXT_ANSWER_MAX / 5).fill(j === 0 ? `${i % 10}` : c))
    .join('')
    .replace(/^./, 'x');
/** JSON with every non-ASCII character as `\uXXXX`, as some clients send it: the largest form of the same body. */
const escapedJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
const post = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${ownerId}`,
    headers: { 'content-type': 'application/json' },
    payload,
  });

describe(`POST /api/forms/:ownerId body limit on ${TEST_ENGINE}`, () => {
  it('accepts and stores many full paragraphs of multi-byte text, raw UTF-8 and \\u-escaped', async () => {
    const textObject = Object.fromEntries(
      Array.from({ length: PARAGRAPHS }, (_, i) => [`Paragraph ${i + 1}`, paragraph(i)]),
    );
    const body = { formStructureId: form._id, textObject };
    for (const payload of [JSON.stringify(body), escapedJson(body)]) {
      expect(Buffer.byteLength(payload)).toBeGreaterThan(PARAGRAPHS * LONG_TEXT_ANSWER_MAX * 2);
      const res = await post(payload);
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const stored = (await as(token).get(`/api/forms/${res.json()._id}`)).json<Submission>();
      expect(stored.textObject).toEqual(textObject);
    }
  });

  it('refuses a body one byte over the computed limit with 413, and reads one at the limit', async () => {
    const frame = (fill: number) =>
      `{"formStructureId":"${form._id}","textObject":{"x":"${'a'.repeat(fill)}"}}`;
    const fill = SUBMISSION_BODY_LIMIT - frame(0).length;
    const over = await post(frame(fill + 1));
    expect(over.statusCode).toBe(413);
    expect(over.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    // At the limit the body is read and judged on its content: "x" is no question of the form.
    const at = await post(frame(fill));
    expect(at.statusCode).toBe(400);
  });

  it('keeps the small limit on every other JSON route', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'a@example.com', password: 'x'.repeat(70 * 1024) },
    });
    expect(res.statusCode).toBe(413);
  });
});
