import { describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { passwordsHashed } from '../../http/crypto.ts';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';

const WINDOW = 60_000;
// Small limits so a test reaches them quickly; the defaults are argued in docs/decisions/004.
const t = setUpTestApp({
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    sendOtpPerIp: { max: 30, windowMs: WINDOW },
    sendOtpPerEmail: { max: 2, windowMs: WINDOW },
    resetCodesPerEmail: { max: 3, windowMs: WINDOW },
    updatePasswordPerIp: { max: 30, windowMs: WINDOW },
    updatePasswordPerEmail: { max: 3, windowMs: WINDOW },
  },
  trustProxy: 1,
});
const as = ownerRequests(() => t);

const OWNER_IP = '198.51.100.30';
const NEW_PASSWORD = 'a brand new password';
const post = (url: string, payload: object, ip = OWNER_IP) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'x-forwarded-for': ip } });

/** Asks for a reset as the owner does; the code (or null) and the link's secret from the mail that arrives. */
async function requestReset(email: string, ip = OWNER_IP) {
  const since = t.mail.mails.length;
  const res = await post('/api/v1/sendOtp', { email }, ip);
  expect(res.statusCode).toBe(200);
  expect(res.json().message).toBe(ACCOUNT_MESSAGES.otpSent);
  const mail = await t.mail.waitFor(email, { since });
  const link = /(https?:\/\/\S+\/resetPassword)#key=([\w-]{43})\b/.exec(mail.text);
  expect(link?.[1]).toBe('http://easyform.test/resetPassword');
  expect(mail.html).toContain(`/resetPassword#key=${link?.[2]}`);
  return { code: /\b(\d{6})\b/.exec(mail.text)?.[1] ?? null, key: link?.[2] ?? '' };
}
const withCode = (email: string, otp: string, ip = OWNER_IP) =>
  post('/api/v1/updatePassword', { email, otp, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }, ip);
const withLink = (key: string, password = NEW_PASSWORD) =>
  post('/api/v1/resetPassword', { key, password, confirmPassword: password });
const wrongCodeFor = (code: string) => (code === '000000' ? '111111' : '000000');
const logsIn = async (email: string, password: string) =>
  (await post('/api/v1/login', { email, password })).statusCode === 201;

describe(`POST /api/v1/resetPassword (the reset mail's link), on ${TEST_ENGINE}`, () => {
  it('sets a new password once, ends every session, code and link of the account, and trusts the browser', async () => {
    const owner = await signUpOwner(t);
    const first = await requestReset(owner.email);
    const { key } = await requestReset(owner.email);
    const res = await withLink(key);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(ACCOUNT_MESSAGES.passwordUpdated);
    expect(String(res.headers['set-cookie'])).toMatch(/^easyform_device=[\w-]{43}; Path=\/api\/v1\/login;/);
    const me = await as(owner).get(`/api/v1/${owner.id}`);
    expect(me.statusCode).toBe(401);
    expect(await logsIn(owner.email, NEW_PASSWORD)).toBe(true);
    const again = await withLink(key, 'yet another password');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toEqual({
      code: 'LINK_INVALID',
      message: 'This reset link is wrong, expired or already used. Request a new one.',
    });
    expect((await withLink(first.key, 'yet another password')).statusCode).toBe(400);
    expect((await withCode(owner.email, first.code ?? '')).statusCode).toBe(400);
  });

  it('works after any number of wrong codes, while the code route is rate limited by a stranger', async () => {
    const owner = await signUpOwner(t);
    const { code, key } = await requestReset(owner.email);
    const stranger = '203.0.113.77';
    for (let i = 0; i < 3; i++)
      expect((await withCode(owner.email, wrongCodeFor(code ?? ''), stranger)).statusCode).toBe(400);
    expect((await withCode(owner.email, code ?? '')).statusCode).toBe(429);
    expect((await withLink(key)).statusCode).toBe(200);
    expect(await logsIn(owner.email, NEW_PASSWORD)).toBe(true);
  });

  it('answers 400 for a malformed, unknown or expired link without hashing a password', async () => {
    const owner = await signUpOwner(t);
    const { key } = await requestReset(owner.email);
    const before = passwordsHashed();
    const malformed = await withLink('not-a-key');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.message).toBe('key: This reset link is not complete');
    expect((await post('/api/v1/resetPassword', { password: NEW_PASSWORD })).statusCode).toBe(400);
    expect((await withLink('A'.repeat(43))).json().error.code).toBe('LINK_INVALID');
    await t.app.db.query(
      `update password_reset_codes set expires_at = now() - interval '1 second' where account_id = $1`,
      [owner.id],
    );
    expect((await withLink(key)).json().error.code).toBe('LINK_INVALID');
    expect(passwordsHashed()).toBe(before);
    expect(await logsIn(owner.email, owner.password)).toBe(true);
  });
});

describe(`POST /api/v1/sendOtp asked again, on ${TEST_ENGINE}`, () => {
  it('keeps the code sent a minute ago working after a new one is asked for', async () => {
    const owner = await signUpOwner(t);
    const first = await requestReset(owner.email);
    const second = await requestReset(owner.email, '198.51.100.31');
    expect(first.code).not.toBeNull();
    expect(second.code).not.toBeNull();
    expect((await withCode(owner.email, first.code ?? '')).statusCode).toBe(200);
    expect(await logsIn(owner.email, NEW_PASSWORD)).toBe(true);
  });

  it("still mails the owner a reset link after a stranger's requests, and codes only up to the per-email count", async () => {
    const owner = await signUpOwner(t);
    const stranger = '203.0.113.78';
    await requestReset(owner.email, stranger);
    await requestReset(owner.email, stranger);
    expect((await post('/api/v1/sendOtp', { email: owner.email }, stranger)).statusCode).toBe(429);
    expect((await requestReset(owner.email)).code).not.toBeNull();
    // Past the per-email count of codes the mail carries only its link, so guessing gets no more codes to try.
    const linkOnly = await requestReset(owner.email, '198.51.100.32');
    expect(linkOnly.code).toBeNull();
    expect((await withLink(linkOnly.key)).statusCode).toBe(200);
  });
});
