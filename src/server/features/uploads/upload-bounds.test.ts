import { afterAll, describe, expect, it } from 'vitest';
import type { UploadResponse } from '#common/submissions.ts';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { createTestApp, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';
import { multipart, PDF } from '../../testing/test-files.ts';
import { clientKeyOf } from './client-bounds.ts';

const HOUR = 60 * 60 * 1000;
const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});
const appWith = async (limits: Partial<typeof DEFAULT_RATE_LIMITS>) => {
  const t = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMITS, ...limits } });
  apps.push(t);
  return t;
};
const upload = (t: TestApp, remoteAddress = '203.0.113.7') =>
  t.app.inject({ method: 'POST', url: '/api/profile', remoteAddress, ...multipart('id.pdf', PDF) });

describe(`per-address upload bounds on ${TEST_ENGINE}`, () => {
  it('answers 429 with Retry-After past the uploads an address may make an hour', async () => {
    const t = await appWith({ uploadsPerIp: { max: 2, windowMs: HOUR } });
    expect((await upload(t)).statusCode).toBe(200);
    expect((await upload(t)).statusCode).toBe(200);
    const refused = await upload(t);
    expect(refused.statusCode).toBe(429);
    // The customer's file slot shows this message as it comes (upload-errors.ts), with "Try again".
    expect(refused.json().error).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many files came from this connection in a short time. Wait an hour and try again.',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await upload(t, '198.51.100.9')).statusCode).toBe(200);
  });

  it('bounds unclaimed uploads per address in count, freeing room when one is deleted', async () => {
    const t = await appWith({ unclaimedUploadsPerIp: { max: 2, windowMs: 24 * HOUR } });
    const first = (await upload(t)).json<UploadResponse>();
    expect((await upload(t)).statusCode).toBe(200);
    const refused = await upload(t);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toMatch(/waiting to be submitted/);
    // Until the oldest unclaimed upload leaves the 24-hour window.
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect(await t.app.db.query('select 1 from uploads')).toHaveLength(2);
    await t.app.inject({ method: 'DELETE', url: `/api/profile/${first._id}` });
    expect((await upload(t)).statusCode).toBe(200);
  });

  it('bounds unclaimed bytes per address, keeping nothing of the upload that went past', async () => {
    const t = await appWith({ unclaimedUploadBytesPerIp: { max: PDF.length * 2 + 10, windowMs: 24 * HOUR } });
    expect((await upload(t)).statusCode).toBe(200);
    expect((await upload(t)).statusCode).toBe(200);
    // Under the allowance when it starts, over it once stored: refused, and its row and file removed.
    const past = await upload(t);
    expect(past.statusCode).toBe(429);
    expect(await t.app.db.query('select 1 from uploads')).toHaveLength(2);
    expect((await upload(t, '2001:db8:1:2::1')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64 and never stores the address itself', () => {
    const secret = 'k'.repeat(64);
    expect(clientKeyOf('2001:db8:1:2::1', secret)).toBe(clientKeyOf('2001:0db8:0001:0002:ffff::9', secret));
    expect(clientKeyOf('2001:db8:1:2::1', secret)).not.toBe(clientKeyOf('2001:db8:1:3::1', secret));
    expect(clientKeyOf('::ffff:203.0.113.7', secret)).toBe(clientKeyOf('203.0.113.7', secret));
    expect(clientKeyOf('203.0.113.7', secret)).not.toContain('203');
  });
});
