import { describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';
import { deviceCookie } from './devices.ts';

const WINDOW = 60_000;
// Small limits so a test reaches them quickly; the defaults are argued in docs/decisions/004.
const t = setUpTestApp({
  rateLimits: {
    ...DEFAULT_RATE_LIMITS,
    loginPerIp: { max: 20, windowMs: WINDOW },
    loginPerEmail: { max: 3, windowMs: WINDOW },
    loginPerDevice: { max: 3, windowMs: WINDOW },
  },
  trustProxy: 1,
});
const as = ownerRequests(t);

const OWNER_IP = '198.51.100.20';
const STRANGER_IP = '203.0.113.66';

const login = (email: string, password: string, options: { ip?: string; cookie?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { email, password },
    headers: {
      'x-forwarded-for': options.ip ?? OWNER_IP,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  });

/** The owner logs in from their browser; the `name=value` the browser keeps for its next requests. */
async function browserOf(email: string, password: string): Promise<string> {
  const res = await login(email, password);
  expect(res.statusCode).toBe(201);
  const setCookie = String(res.headers['set-cookie']);
  expect(setCookie).toMatch(/^easyform_device=[\w-]{43}; /);
  return setCookie.split(';')[0] ?? '';
}

/** A stranger guesses at the address until it is locked (429), as a script would. */
async function lockOut(email: string) {
  const statuses: number[] = [];
  while (statuses.at(-1) !== 429 && statuses.length < 5)
    statuses.push((await login(email, 'wrong guess', { ip: STRANGER_IP })).statusCode);
  expect(statuses.at(-1)).toBe(429);
}

describe(`POST /api/v1/login with a device cookie, on ${TEST_ENGINE}`, () => {
  it('gives the browser a long-lived HttpOnly, SameSite=Lax cookie sent back only to login', async () => {
    const owner = await signUpOwner(t);
    const res = await login(owner.email, owner.password);
    expect(res.statusCode).toBe(201);
    const attributes = String(res.headers['set-cookie']).split('; ').slice(1);
    expect(attributes).toEqual(['Path=/api/v1/login', 'Max-Age=31536000', 'HttpOnly', 'SameSite=Lax']);
    expect(deviceCookie('x'.repeat(43), true)).toMatch(/; Secure$/);
    // A wrong password gets no cookie.
    expect((await login(owner.email, 'not it')).headers['set-cookie']).toBeUndefined();
  });

  it("logs the owner in from a browser they used before while a stranger's wrong guesses lock the address", async () => {
    const owner = await signUpOwner(t);
    const browser = await browserOf(owner.email, owner.password);
    await lockOut(owner.email);
    // Without the cookie the right password waits, as before: a guesser learns nothing from it.
    expect((await login(owner.email, owner.password)).statusCode).toBe(429);
    const res = await login(owner.email, owner.password, { cookie: browser });
    expect(res.statusCode).toBe(201);
    const me = await as(res.json().token).get(`/api/v1/${owner.id}`);
    expect(me.statusCode).toBe(200);
  });

  it('keeps guessing with a device cookie as slow as without: the cookie has its own count', async () => {
    const owner = await signUpOwner(t);
    const browser = await browserOf(owner.email, owner.password);
    for (let i = 0; i < 3; i++)
      expect((await login(owner.email, 'wrong guess', { cookie: browser })).statusCode).toBe(405);
    const blocked = await login(owner.email, 'wrong guess', { cookie: browser, ip: '192.0.2.1' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });

  it("trusts a cookie only for its own account, and ignores one that is malformed, unknown or from another's", async () => {
    const owner = await signUpOwner(t);
    const other = await signUpOwner(t);
    const othersBrowser = await browserOf(other.email, other.password);
    await lockOut(owner.email);
    for (const cookie of [
      othersBrowser,
      'easyform_device=../../etc',
      `easyform_device=${'A'.repeat(43)}`,
      '=;;',
    ])
      expect((await login(owner.email, owner.password, { cookie })).statusCode).toBe(429);
  });
});
