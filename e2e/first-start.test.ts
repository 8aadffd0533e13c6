// The first `npm start` on a fresh copy: it builds the web app and the server, then serves. The build runs in a
// process that exits first, so the server keeps none of the builder's memory and no process of it.
//
// This is a project of its own, which scripts/test.mjs runs first: on a fresh clone (CI) the checkout's own first
// start is the one measured, and its build is the one every later pass uses, so a run pays for one full build, not
// two. Where the checkout's build is already up to date (a developer's second run), a copy of the sources without
// dist/ is measured instead, without touching the build the journeys share.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/server/testing/free-port.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const MiB = 1024 * 1024;

/** What a first start showed once its server answered /api/health. */
type FirstStart = {
  healthy: boolean;
  /** Everything it printed. */
  output: string;
  /** The processes left beside the server (the build's must be gone). */
  children: string[];
  /** The server's resident memory, bytes. */
  residentBytes: number;
  /** The status of the login page it built, as served. */
  loginStatus: number;
};

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

/** Runs `node scripts/start.mjs` in `cwd` on an empty DATA_DIR until it serves, measures it, and stops it. */
async function measureStart(cwd: string): Promise<FirstStart> {
  const home = await mkdtemp(join(tmpdir(), 'easyform-first-start-home-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      DATA_DIR: join(home, 'data'),
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
    if (!healthy) return { healthy, output, children: [], residentBytes: 0, loginStatus: 0 };
    const pid = child.pid ?? 0;
    const children = await childrenOf(pid);
    const residentBytes = await statusBytes(pid, 'VmRSS');
    const loginStatus = (await fetch(`http://127.0.0.1:${port}/login`)).status;
    return { healthy, output, children, residentBytes, loginStatus };
  } finally {
    child.kill('SIGTERM');
    await exited;
    await rm(home, { recursive: true, force: true });
  }
}

const BUILT = 'Built the web app';

/** The checkout's own first start when its build is out of date; else that of a copy of the sources. */
async function firstStart(): Promise<FirstStart> {
  const own = await measureStart(root);
  if (!own.healthy || own.output.includes(BUILT)) return own;
  const work = await mkdtemp(join(tmpdir(), 'easyform-first-start-'));
  try {
    for (const name of ['src', 'scripts', 'vite.config.ts', 'package.json', 'tsconfig.json'])
      await cp(join(root, name), join(work, name), { recursive: true });
    await symlink(join(root, 'node_modules'), join(work, 'node_modules'));
    return await measureStart(work);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

describe.skipIf(process.platform !== 'linux')('the first start of a fresh copy', () => {
  it('builds, then serves from a process that holds at most 400 MiB and no leftover of the build', async () => {
    const started = await firstStart();
    expect(started.healthy, started.output).toBe(true);
    expect(started.output).toContain(BUILT);
    expect(started.children, 'processes left beside the server').toEqual([]);
    expect(started.residentBytes).toBeLessThanOrEqual(400 * MiB);
    // And the page it built is served.
    expect(started.loginStatus).toBe(200);
  });
});
