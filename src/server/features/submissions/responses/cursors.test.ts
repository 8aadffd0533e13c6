import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { form, owner, setUpSubmissions } from '../test-fixture.ts';

const { asOwner, submit, validBody } = setUpSubmissions();

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const listUrls = (cursor: string) => {
  const c = encodeURIComponent(cursor);
  return [
    `/api/forms?after=${c}`,
    `/api/formSubmissions/${form._id}?after=${c}`,
    `/api/formSubmissions/${form._id}?before=${c}`,
  ];
};

describe(`page cursors on ${TEST_ENGINE}`, () => {
  it('answers 400 naming the parameter to crafted cursors, never 500', async () => {
    const uuid = randomUUID();
    const crafted = [
      b64(`1|${uuid}`),
      b64(`+275760-09-13T00:00:00.000Z|${uuid}`),
      b64(`99999999999999999999|${uuid}`),
      b64(`0000-01-01T00:00:00.000Z|${uuid}`),
      b64(`2026-02-30T00:00:00.000Z|${uuid}`),
      b64(`2026-11-23T10:00:00.000Z|${uuid}|extra`),
      b64(`2026-11-23T10:00:00.000Z|not-a-uuid`),
      b64(`2026-11-23T10:00:00.000Z\u0000|${uuid}`),
      b64('\u0000'),
      b64('garbage'),
      `${b64(`2026-11-23T10:00:00.000Z|${uuid}`)}!`,
      '%%%',
      '',
    ];
    for (const cursor of crafted) {
      for (const url of listUrls(cursor)) {
        const res = await asOwner(owner.token, url);
        if (cursor === '') {
          // An empty cursor is no cursor: the first page.
          expect(res.statusCode, url).toBe(200);
          continue;
        }
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_FAILED');
        expect(res.json().error.message).toMatch(/^(after|before)[:.]/);
      }
    }
  });

  it('still pages with the cursors it hands out', async () => {
    await submit(await validBody());
    await submit(await validBody());
    const first = (await asOwner(owner.token, `/api/formSubmissions/${form._id}?limit=1`)).json();
    expect(first.nextCursor).toEqual(expect.any(String));
    const next = await asOwner(
      owner.token,
      `/api/formSubmissions/${form._id}?limit=1&after=${first.nextCursor}`,
    );
    expect(next.statusCode).toBe(200);
    expect(next.json().items[0]._id).not.toBe(first.items[0]._id);
  });

  it('never answers 5xx to an arbitrary string or an arbitrary base64url-encoded string as a cursor', async () => {
    const cursor = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc.string({ unit: 'binary', maxLength: 120 }).map(b64),
      fc
        .tuple(fc.string({ maxLength: 40 }), fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })))
        .map(([date, id]) => b64(`${date}|${id}`)),
      fc
        .tuple(fc.date({ noInvalidDate: false }), fc.uuid())
        .map(([date, id]) => b64(`${Number.isNaN(date.getTime()) ? 'Invalid' : date.toISOString()}|${id}`)),
    );
    await fc.assert(
      fc.asyncProperty(cursor, async (text) => {
        for (const url of listUrls(text.toWellFormed())) {
          const res = await asOwner(owner.token, url);
          expect(res.statusCode, url).toBeLessThan(500);
        }
      }),
      { numRuns: 150 },
    );
  });
});
