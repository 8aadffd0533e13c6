import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FormSettingsBody, FormSettingsView } from '#common/form-settings.ts';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
const as = ownerRequests(() => t);
let owner: { token: string };
let other: { token: string };
let form: Form;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpOwner(t);
  other = await signUpOwner(t);
  form = await createForm(t, owner.token);
});
afterAll(async () => {
  await t?.close();
});

const VALID: FormSettingsBody = {
  opensAt: '2026-12-01T09:00:00+05:30',
  closesAt: '2026-12-31T18:00:00Z',
  responseLimit: 250,
  closedMessage: '  Registration is full.  ',
  thankYouMessage: 'See you there!',
  redirectUrl: 'https://example.com/thanks',
};
const put = (payload: unknown, token = owner.token, fid = form._id) =>
  as(token).put(`/api/formSettings/${fid}`, payload as object);
const get = (token = owner.token, fid = form._id) => as(token).get(`/api/formSettings/${fid}`);

describe(`/api/formSettings/:fid on ${TEST_ENGINE}`, () => {
  it('saves every setting, answers them as instants in UTC with the zone they are shown in, and GET reads them', async () => {
    const res = await put(VALID);
    expect(res.statusCode, res.body).toBe(200);
    const expected: FormSettingsView = {
      opensAt: '2026-12-01T03:30:00.000Z',
      closesAt: '2026-12-31T18:00:00.000Z',
      responseLimit: 250,
      closedMessage: 'Registration is full.',
      thankYouMessage: 'See you there!',
      redirectUrl: 'https://example.com/thanks',
      timeZone: 'Asia/Kolkata',
      responseCount: 0,
    };
    expect(res.json()).toEqual(expected);
    expect((await get()).json()).toEqual(expected);
    const cleared = await put({
      ...VALID,
      opensAt: null,
      closesAt: null,
      responseLimit: null,
      closedMessage: ' ',
    });
    expect(cleared.json()).toMatchObject({
      opensAt: null,
      closesAt: null,
      responseLimit: null,
      closedMessage: null,
    });
  });

  it("another owner's form and an unknown form are 404; no token is 401", async () => {
    expect((await put(VALID, other.token)).statusCode).toBe(404);
    expect((await get(other.token)).statusCode).toBe(404);
    expect((await put(VALID, owner.token, randomUUID())).statusCode).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/api/formSettings/${form._id}` });
    expect(anonymous.statusCode).toBe(401);
  });

  const cases: [string, Partial<Record<keyof FormSettingsBody, unknown>>, string][] = [
    [
      'a close before the open',
      { closesAt: '2026-12-01T03:29:00Z' },
      'closesAt: Closes at must be after opens at',
    ],
    ['a date that is not one', { opensAt: '2026-02-30T10:00:00Z' }, 'opensAt: '],
    [
      'a year PostgreSQL cannot hold as given',
      { closesAt: '0000-02-29T20:00:00+20:00' },
      'closesAt: Closes at must be between the years 2000 and 9999',
    ],
    ['a time without its zone', { opensAt: '2026-12-01T09:00' }, 'opensAt: '],
    ['a limit of 0', { responseLimit: 0 }, 'responseLimit: Response limit must be at least 1'],
    [
      'a limit past a million',
      { responseLimit: 1_000_001 },
      'responseLimit: Response limit must be at most 1,000,000',
    ],
    ['a fractional limit', { responseLimit: 2.5 }, 'responseLimit: '],
    [
      'a long closed message',
      { closedMessage: 'x'.repeat(1001) },
      'closedMessage: Closed message must be at most 1000',
    ],
    [
      'a long thank-you',
      { thankYouMessage: 'x'.repeat(1001) },
      'thankYouMessage: Thank-you message must be at most',
    ],
    [
      'a javascript: redirect',
      { redirectUrl: 'javascript:alert(1)' },
      'redirectUrl: Redirect URL must start with',
    ],
    ['a relative redirect', { redirectUrl: '/thanks' }, 'redirectUrl: Redirect URL must start with'],
    [
      'a long redirect',
      { redirectUrl: `https://example.com/${'a'.repeat(2000)}` },
      'redirectUrl: Redirect URL must be at most',
    ],
    ['NUL in a message', { thankYouMessage: 'a\u0000b' }, 'thankYouMessage: '],
  ];
  it.each(cases)('refuses %s with 400 naming the field', async (_name, change, message) => {
    const res = await put({ ...VALID, ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(res.json().error.message.startsWith(message), res.json().error.message).toBe(true);
  });

  it('refuses any redirect that is not an absolute http or https URL, naming the field', async () => {
    const notWeb = fc
      .oneof(
        fc.webUrl().map((url) => url.replace(/^https?/, 'ftp')),
        fc.string(),
        fc.constantFrom(
          'data:text/html,hi',
          'javascript://example.com/%0aalert(1)',
          '//example.com',
          'http://',
        ),
      )
      .filter((text) => !/^https?:\/\/[^\s/]/i.test(text.trim()));
    await fc.assert(
      fc.asyncProperty(notWeb, async (redirectUrl) => {
        if (redirectUrl.trim() === '') return; // blank clears the setting
        const res = await put({ ...VALID, redirectUrl });
        expect(res.statusCode, `${redirectUrl}: ${res.body}`).toBe(400);
        expect(res.json().error.message).toMatch(/^redirectUrl: /);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps the form as it was when the change is refused', async () => {
    await put(VALID);
    await put({ ...VALID, responseLimit: -1, thankYouMessage: 'changed' });
    expect((await get()).json().thankYouMessage).toBe('See you there!');
  });
});
