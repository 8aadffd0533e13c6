import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { bearer, ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';

// Many logins in flight at once: the per-email limits would answer 429 long before the race is reached.
const PLENTY = { max: 10_000, windowMs: 60_000 };
const t = setUpTestApp({
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    loginPerIp: PLENTY,
    loginPerEmail: PLENTY,
    sendOtpPerIp: PLENTY,
    sendOtpPerEmail: PLENTY,
  },
});
const as = ownerRequests(() => t);

const post = (url: string, payload: object, token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: token ? bearer(token) : {},
  });
const isSignedIn = async (id: string, token: string) =>
  (await as(token).get(`/api/v1/${id}`)).statusCode === 200;

/** Logins with `password` started every few milliseconds while `change` runs; the tokens they were given. */
async function loginsAround(email: string, password: string, change: () => Promise<unknown>) {
  const logins = Array.from({ length: 24 }, async (_, i) => {
    await sleep(i * 6);
    const res = await post('/api/v1/login', { email, password });
    // Before the change: a session (which the change then ends); after it: the old password is wrong.
    expect([201, 405]).toContain(res.statusCode);
    return res.statusCode === 201 ? res.json<{ token: string }>().token : null;
  });
  await Promise.all([change(), ...logins]);
  return (await Promise.all(logins)).filter((token): token is string => token !== null);
}

describe(`race: sessions racing a password change on ${TEST_ENGINE}`, () => {
  it('a login with the old password in flight during a reset leaves no session that outlives the reset', async () => {
    const owner = await signUpOwner(t);
    const since = t.mail.mails.length;
    expect((await post('/api/v1/sendOtp', { email: owner.email })).statusCode).toBe(200);
    const otp = /\b(\d{6})\b/.exec((await t.mail.waitFor(owner.email, { since })).text)?.[1] ?? '';
    const password = 'a brand new password';
    let resetStatus = 0;
    const tokens = await loginsAround(owner.email, owner.password, async () => {
      await sleep(30);
      resetStatus = (
        await post('/api/v1/updatePassword', { email: owner.email, otp, password, confirmPassword: password })
      ).statusCode;
    });
    expect(resetStatus).toBe(200);
    const live = [];
    for (const token of tokens) if (await isSignedIn(owner.id, token)) live.push(token);
    expect(live).toEqual([]);
  });

  it('a login with the old password in flight during a change of password leaves no other session', async () => {
    const owner = await signUpOwner(t);
    const password = 'a brand new password';
    let changeStatus = 0;
    const tokens = await loginsAround(owner.email, owner.password, async () => {
      await sleep(30);
      changeStatus = (
        await post(
          '/api/v1/changePassword',
          { currentPassword: owner.password, password, confirmPassword: password },
          owner.token,
        )
      ).statusCode;
    });
    expect(changeStatus).toBe(200);
    const live = [];
    for (const token of tokens) if (await isSignedIn(owner.id, token)) live.push(token);
    expect(live).toEqual([]);
  });
});

describe(`race: reset codes asked for at once on ${TEST_ENGINE}`, () => {
  it('mails codes only up to the per-email count however many requests race; the rest carry a link', async () => {
    const owner = await signUpOwner(t);
    const sent = await Promise.all(
      Array.from({ length: 8 }, () => post('/api/v1/sendOtp', { email: owner.email })),
    );
    expect(sent.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const [live] = await t.app.db.query<{ codes: number; links: number }>(
      `select count(code_hash)::int as codes, count(link_hash)::int as links
         from password_reset_codes where account_id = $1 and used_at is null`,
      [owner.id],
    );
    // Every live code takes each wrong guess (passwords.test.ts), so five codes allow no more tries than one did.
    expect(live).toEqual({ codes: DEFAULT_RATE_LIMITS.resetCodesPerEmail.max, links: 8 });
  });
});
