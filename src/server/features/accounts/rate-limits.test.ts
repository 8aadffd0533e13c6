import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import {
  createTestApp,
  signUpOwner,
  TEST_ENGINE,
  uniqueEmail,
  type TestApp,
} from '../../testing/test-app.ts';

let t: TestApp;
const as = ownerRequests(() => t);
const WINDOW = 60_000;
beforeAll(async () => {
  // Small limits so the test reaches them quickly; the defaults are argued in docs/decisions.
  t = await createTestApp({
    rateLimits: {
      ...DEFAULT_RATE_LIMITS,
      loginPerIp: { max: 6, windowMs: WINDOW },
      loginPerEmail: { max: 3, windowMs: WINDOW },
      sendOtpPerEmail: { max: 2, windowMs: WINDOW },
    },
    trustProxy: 1,
  });
});
afterAll(async () => {
  await t?.close();
});

const login = (email: string, ip = '203.0.113.7') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { email, password: 'guess-guess' },
    headers: { 'x-forwarded-for': ip },
  });

describe(`rate limits on ${TEST_ENGINE}`, () => {
  it('stops a script guessing one account with 429 and Retry-After, while other accounts still log in', async () => {
    const target = uniqueEmail();
    for (let i = 0; i < 3; i++) expect((await login(target)).statusCode).toBe(404);
    const blocked = await login(target);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Try again in a minute.',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(target, '198.51.100.9')).statusCode).toBe(429);
    expect((await login(uniqueEmail(), '198.51.100.9')).statusCode).toBe(404);
  });

  it('stops one address spraying many accounts', async () => {
    const ip = '192.0.2.44';
    for (let i = 0; i < 6; i++) expect((await login(uniqueEmail(), ip)).statusCode).toBe(404);
    expect((await login(uniqueEmail(), ip)).statusCode).toBe(429);
  });

  it('limits password changes per account, in the same words', async () => {
    const owner = await signUpOwner(t);
    const change = () =>
      as(owner).post('/api/v1/changePassword', {
        currentPassword: 'not it at all',
        password: 'new password 1',
        confirmPassword: 'new password 1',
      });
    for (let i = 0; i < 3; i++) expect((await change()).statusCode).toBe(400);
    const blocked = await change();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many attempts. Try again in a minute.',
    });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits reset codes per email', async () => {
    const email = uniqueEmail();
    const send = () => t.app.inject({ method: 'POST', url: '/api/v1/sendOtp', payload: { email } });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(429);
  });
});
