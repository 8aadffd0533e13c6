import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { createTestApp, TEST_ENGINE, uniqueEmail, type TestApp } from '../../testing/test-app.ts';

// The per-address login limit is the guard against password spraying; these tests check that X-Forwarded-For
// cannot be used to walk around it, whichever way TRUST_PROXY names the proxy.
const PROXY = '10.0.0.5';
const LIMIT = 4;
const smallLimits = {
  ...DEFAULT_RATE_LIMITS,
  loginPerIp: { max: LIMIT, windowMs: 60_000 },
};

let byHops: TestApp;
let byAddress: TestApp;
beforeAll(async () => {
  byHops = await createTestApp({ rateLimits: smallLimits, trustProxy: 1 });
  byAddress = await createTestApp({ rateLimits: smallLimits, trustProxy: [PROXY] });
});
afterAll(async () => {
  await byHops?.close();
  await byAddress?.close();
});

const login = (t: TestApp, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    remoteAddress,
    payload: { email: uniqueEmail(), password: 'guess-guess' },
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });

let spoofs = 0;
// What a client claims: a fresh "address" on every request, as a script dodging the limit would send.
const spoofed = () => `192.0.2.${++spoofs % 250}, 198.18.0.${spoofs % 250}`;

describe(`TRUST_PROXY on ${TEST_ENGINE}`, () => {
  it('one hop: a client spoofing X-Forwarded-For through nginx is still counted by its real address', async () => {
    const client = '203.0.113.10';
    // nginx's $proxy_add_x_forwarded_for appends the address it saw to whatever the client sent.
    for (let i = 0; i < LIMIT; i++) {
      expect((await login(byHops, PROXY, `${spoofed()}, ${client}`)).statusCode).toBe(404);
    }
    const blocked = await login(byHops, PROXY, `${spoofed()}, ${client}`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
  });

  it('one hop: an IPv6 client is counted by its /64, however the proxy writes the address', async () => {
    // Each a different address, or a different spelling, in one subscriber's /64.
    const addresses = [
      '2001:db8:5:6::1',
      '2001:DB8:5:6::2',
      '[2001:db8:5:6::3]',
      '2001:0db8:0005:0006:ffff::9',
    ];
    for (let i = 0; i < LIMIT; i++) {
      expect((await login(byHops, PROXY, addresses[i % addresses.length])).statusCode).toBe(404);
    }
    expect((await login(byHops, PROXY, '2001:db8:5:6:abcd::77')).statusCode).toBe(429);
    // The next /64 is somebody else.
    expect((await login(byHops, PROXY, '2001:db8:5:7::1')).statusCode).toBe(404);
  });

  it('one hop: two genuine clients behind the proxy are counted separately', async () => {
    const [alice, bob] = ['203.0.113.21', '203.0.113.22'];
    for (let i = 0; i < LIMIT; i++) expect((await login(byHops, PROXY, alice)).statusCode).toBe(404);
    expect((await login(byHops, PROXY, alice)).statusCode).toBe(429);
    expect((await login(byHops, PROXY, bob)).statusCode).toBe(404);
  });

  it('by address: a client spoofing X-Forwarded-For through the proxy is counted by its real address', async () => {
    const client = '203.0.113.30';
    for (let i = 0; i < LIMIT; i++) {
      expect((await login(byAddress, PROXY, `${spoofed()}, ${client}`)).statusCode).toBe(404);
    }
    expect((await login(byAddress, PROXY, `${spoofed()}, ${client}`)).statusCode).toBe(429);
    expect((await login(byAddress, PROXY, '203.0.113.31')).statusCode).toBe(404);
  });

  it('by address: a client that reaches the app directly cannot claim an address at all', async () => {
    const direct = '198.51.100.40';
    for (let i = 0; i < LIMIT; i++) expect((await login(byAddress, direct, spoofed())).statusCode).toBe(404);
    expect((await login(byAddress, direct, spoofed())).statusCode).toBe(429);
    expect((await login(byAddress, direct)).statusCode).toBe(429);
  });
});
