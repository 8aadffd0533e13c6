// The install as docs/operations.md describes it: the code copied and built by root, then started by the service's
// own user, who may write its data directory and nothing else (the unit makes the code directory read-only).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmod, chown, copyFile, cp, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/testing/free-port.ts';
import { embeddedTemplate } from './support/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const hasSystemdAnalyze = (() => {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/** The unprivileged user the service runs as; Debian's `nobody` stands in for `easyform`. */
const NOBODY = { uid: 65534, gid: 65534 };
const isRoot = process.getuid?.() === 0;

let work: string;

/** The messages of the JSON lines the service printed (every line of its log is JSON). */
const said = (output: string): string[] =>
  output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
/**
 * This Node, copied where the service's user may run it: CI's own Node sits in a directory only root may enter.
 */
let node: string;

/** `node scripts/start.mjs` in `code` as NOBODY, with only what a unit's environment holds. */
function startAsNobody(code: string, dataDir: string, port: number) {
  const child = spawn(node, ['scripts/start.mjs'], {
    cwd: code,
    ...NOBODY,
    env: {
      PATH: process.env.PATH,
      HOME: dataDir,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

describe.skipIf(!isRoot)('the service install: built by root, run by its own user', () => {
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'easyform-install-'));
    await chmod(work, 0o755);
    node = join(work, 'node');
    await copyFile(process.execPath, node);
    await chmod(node, 0o755);
    // What `sudo npm run build` does at install (nothing, when the run's journeys have built it already).
    execFileSync(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: root, stdio: 'ignore' });
  }, 240_000);
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('serves from a read-only code directory, writing only its data directory', async (context) => {
    const code = join(work, 'opt-easy-form');
    await mkdir(code);
    try {
      execFileSync('mount', ['--bind', root, code], { stdio: 'ignore' });
      execFileSync('mount', ['-o', 'remount,ro,bind', code], { stdio: 'ignore' });
    } catch {
      context.skip('this machine does not let the test bind-mount a directory read-only');
    }
    const dataDir = join(work, 'var-lib-easy-form');
    await mkdir(dataDir, { mode: 0o700 });
    const template = embeddedTemplate();
    if (template) await cp(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
    execFileSync('chown', ['-R', `${NOBODY.uid}:${NOBODY.gid}`, dataDir]);
    const port = await freePort();
    const server = startAsNobody(code, dataDir, port);
    try {
      let health = 0;
      for (let i = 0; i < 600 && health !== 200 && server.child.exitCode === null; i++) {
        health = await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (response) => response.status,
          () => 0,
        );
        if (health !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(health, server.output()).toBe(200);
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(200);
      expect(await home.text()).toMatch(/Easy Form/);
      expect(said(server.output()).slice(0, 2)).toEqual([
        'The web app is up to date.',
        'The server is up to date.',
      ]);
      // Everything it made is its own.
      for (const name of await readdir(dataDir))
        expect((await stat(join(dataDir, name))).uid, name).toBe(NOBODY.uid);
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    } finally {
      server.child.kill('SIGKILL');
      execFileSync('umount', [code]);
    }
  }, 120_000);

  it('says in one line what to do when its sources changed since the build it may not write', async () => {
    // An update copied in without `npm run build`: the sources are newer than any build, and dist/ is root's.
    const code = join(work, 'updated');
    await mkdir(join(code, 'scripts'), { recursive: true });
    await cp(join(root, 'scripts', 'start.mjs'), join(code, 'scripts', 'start.mjs'));
    await cp(join(root, 'package.json'), join(code, 'package.json'));
    await mkdir(join(code, 'dist'));
    const dataDir = join(work, 'data-updated');
    await mkdir(dataDir);
    await chown(dataDir, NOBODY.uid, NOBODY.gid);
    const started = startAsNobody(code, dataDir, await freePort());
    expect(await started.exited).toBe(1);
    expect(said(started.output())).toEqual([
      `The web app is older than its sources, and ${join(code, 'dist')} is not writable by nobody (EACCES): ` +
        `run \`npm run build\` in ${code}/ as the user who installed it, then start again.`,
    ]);
  });

  // This machine's PID 1 is not systemd, so the unit cannot run here; its file is checked by systemd's own reader.
  it.skipIf(!hasSystemdAnalyze)('ships a unit file systemd reads without a complaint', () => {
    const verified = spawnSync('systemd-analyze', ['verify', join(root, 'deploy', 'easy-form.service')], {
      encoding: 'utf8',
    });
    expect({ status: verified.status, said: `${verified.stdout}${verified.stderr}` }).toEqual({
      status: 0,
      said: '',
    });
  });
});
