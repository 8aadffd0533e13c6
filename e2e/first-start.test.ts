// The first `npm start` on a fresh copy: it builds the web app and the server, then serves. The build runs in a
// process that exits first, so the server keeps none of the builder's memory and no process of it.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/testing/free-port.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;

let work: string;

/** A field of /proc/<pid>/status in bytes (VmRSS: resident memory now). */
async function statusBytes(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
  if (kb === undefined) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(kb) * 1024;
}

/** The processes `pid` started that are still there, finished ones not yet reaped included. */
async function childrenOf(pid: number): Promise<string[]> {
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8');
  return children.split(' ').filter(Boolean);
}

describe.skipIf(process.platform !== 'linux')('the first start of a fresh copy', () => {
  beforeAll(async () => {
    // A copy of the sources without dist/: what a fresh clone is, without touching the build the journeys share.
    work = await mkdtemp(join(tmpdir(), 'easyform-first-start-'));
    for (const name of ['src', 'scripts', 'vite.config.ts', 'package.json', 'tsconfig.json'])
      await cp(join(root, name), join(work, name), { recursive: true });
    await symlink(join(root, 'node_modules'), join(work, 'node_modules'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('builds, then serves from a process that holds at most 400 MiB and no leftover of the build', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['scripts/start.mjs'], {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        DATA_DIR: join(work, 'data'),
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let healthy = false;
      while (!healthy && child.exitCode === null) {
        healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (response) => response.ok,
          () => false,
        );
        if (!healthy) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(healthy, output).toBe(true);
      expect(output).toContain('Built the web app');
      const pid = child.pid ?? 0;
      expect(await childrenOf(pid), 'processes left beside the server').toEqual([]);
      expect(await statusBytes(pid, 'VmRSS')).toBeLessThanOrEqual(400 * MiB);
      // And the page it built is served.
      const page = await fetch(`http://127.0.0.1:${port}/login`);
      expect(page.status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  }, 300_000);
});
