// Readiness covers the disk under DATA_DIR (docs/decisions/039-boot-and-health.md): a process whose disk is full or
// read-only tells its load balancer to send customers elsewhere, while liveness stays 200 (a restart would not help).
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.ts';

/** A small tmpfs of the test's own, which only root may mount (skipped elsewhere, as a container without the right). */
let mountPoint: string;
let mounted = false;
let t: TestApp;

const ready = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
  return { status: res.statusCode, body: res.json<{ ok: boolean; disk: string }>() };
};

beforeAll(async () => {
  mountPoint = await mkdtemp(join(tmpdir(), 'easyform-small-disk-'));
  try {
    // 200 MiB: room for one largest upload (10 MiB here) and the database's 64 MiB reserve, until a file fills it.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=200m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    mounted = true;
  } catch {
    return;
  }
  const dataDir = join(mountPoint, 'data');
  await mkdir(dataDir);
  t = await createTestApp({ dataDir, uploadMaxBytes: 10 * 1024 * 1024 });
});

afterAll(async () => {
  // The app's own close removes its DATA_DIR; the mount goes after it.
  await t?.close().catch(() => undefined);
  if (mounted) execFileSync('mount', ['-o', 'remount,rw', mountPoint], { stdio: 'ignore' });
  if (mounted) execFileSync('umount', [mountPoint]);
  await rm(mountPoint, { recursive: true, force: true });
});

describe('readiness and the disk under DATA_DIR', () => {
  it('is 200 while there is room', async (context) => {
    if (!mounted) context.skip('this machine does not let the test mount a tmpfs');
    expect(await ready()).toEqual({ status: 200, body: expect.objectContaining({ ok: true, disk: 'ok' }) });
  });

  it('is 503 with the disk full when less than an upload and the database’s reserve is free, live all along', async (context) => {
    if (!mounted) context.skip('this machine does not let the test mount a tmpfs');
    // Something else on the machine (a log, another service) takes 130 MiB of the disk.
    await writeFile(join(mountPoint, 'someone-elses'), Buffer.alloc(130 * 1024 * 1024, 1));
    expect(await ready()).toEqual({
      status: 503,
      body: expect.objectContaining({ ok: false, disk: 'full' }),
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
  });

  it('is 503 with the disk not writable once it is read-only', async (context) => {
    if (!mounted) context.skip('this machine does not let the test mount a tmpfs');
    execFileSync('mount', ['-o', 'remount,ro', mountPoint], { stdio: 'ignore' });
    try {
      expect(await ready()).toEqual({
        status: 503,
        body: expect.objectContaining({ ok: false, disk: 'not writable' }),
      });
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mountPoint], { stdio: 'ignore' });
    }
  });
});
