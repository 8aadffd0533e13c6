import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../testing/test-app.ts';
import { databaseRateLimitStore, pruneRateLimits, type RateLimitStore } from './rate-limit-store.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const SECRET = 'k'.repeat(64);
/** A store as the plugin makes it: one per process, here two over the same database. */
const storeOver = (): RateLimitStore => new (databaseRateLimitStore(t.app.db, SECRET))();
const incr = (store: RateLimitStore, key: string, windowMs = 60_000) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (error, hits) => (error ? reject(error) : resolve(hits!)), windowMs, 5),
  );
const read = (store: RateLimitStore, key: string) =>
  new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.read(key, (error, hits) => (error ? reject(error) : resolve(hits!)), 60_000, 5),
  );

describe(`rate limits counted in the database on ${TEST_ENGINE}`, () => {
  it('counts one key across two processes’ stores, within one window', async () => {
    const [a, b] = [storeOver(), storeOver()];
    const key = `login:email:${Date.now()}@example.com`;
    const counts = [];
    for (let i = 0; i < 6; i++) counts.push((await incr(i % 2 ? b : a, key)).current);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6]);
    const now = await read(a, key);
    expect(now.current).toBe(6);
    expect(now.ttl).toBeGreaterThan(0);
    expect(now.ttl).toBeLessThanOrEqual(60_000);
    // Reading counts nothing.
    expect((await read(b, key)).current).toBe(6);
    // Another key has its own count.
    expect((await incr(a, `${key}.other`)).current).toBe(1);
  });

  it('counts concurrent hits exactly', async () => {
    const store = storeOver();
    const key = `signUp:ip:${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 40 }, () => incr(store, key)));
    expect(results.map((r) => r.current).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('starts again once the window has ended, and the sweep forgets ended windows', async () => {
    const store = storeOver();
    const key = `reset:ip:${Date.now()}`;
    await incr(store, key);
    await incr(store, key);
    await t.app.db.query(`update rate_limit_hits set window_ends = now() - interval '1 second'`);
    expect((await read(store, key)).current).toBe(0);
    expect(await pruneRateLimits(t.app.db)).toBeGreaterThan(0);
    expect((await incr(store, key)).current).toBe(1);
  });

  it('keeps neither the address nor the email it counts', async () => {
    const store = storeOver();
    await incr(store, 'login:email:private.person@example.com');
    const rows = await t.app.db.query<{ key: string }>('select key from rate_limit_hits');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.key.includes('private.person'))).toBe(false);
  });
});
