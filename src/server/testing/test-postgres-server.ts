// A PostgreSQL server of a test's own, which the test stops and starts (a database restart, a database that comes up
// after the app): the shared one of TEST_DATABASE_URL must stay up for every other test. Password authentication over
// TCP, so a wrong password is refused as in production. The same recipe as scripts/pg-start.sh.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const PGBIN = '/usr/lib/postgresql/15/bin';
/** Where the PostgreSQL binaries are; elsewhere the tests that need a server of their own are skipped. */
export const hasPostgresBinaries = existsSync(join(PGBIN, 'initdb'));

export type TestPostgresServer = {
  /** The URL of its `postgres` database as user `postgres`, with `password` (the right one by default). */
  url(password?: string): string;
  /** Starts it (again) on its port, and resolves once it takes connections. */
  start(): Promise<void>;
  /** Stops it as a service manager's restart does (fast shutdown: connections are ended). */
  stop(): Promise<void>;
  /** Stops it and removes its files. */
  remove(): Promise<void>;
};

const PASSWORD = 'a-test-password';

/** Makes the cluster (initdb) on a free port, stopped: `start()` brings it up. */
export async function createTestPostgresServer(): Promise<TestPostgresServer> {
  const dir = await mkdtemp(join(tmpdir(), 'easyform-pg-'));
  const data = join(dir, 'data');
  const pwfile = join(dir, 'password');
  await writeFile(pwfile, `${PASSWORD}\n`);
  // PostgreSQL refuses to run as root: then it runs as the system's postgres user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await promisify(execFile)('id', ['-u', 'postgres']);
    const uid = Number(stdout.trim());
    await chown(dir, uid, uid);
    await chown(pwfile, uid, uid);
  }
  const run = (binary: string, args: string[]) =>
    promisify(execFile)(
      asRoot ? 'runuser' : join(PGBIN, binary),
      asRoot ? ['-u', 'postgres', '--', join(PGBIN, binary), ...args] : args,
    );
  await run('initdb', [
    ...['-D', data, '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'],
    ...['--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`],
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-w', '-t', '30', ...args]);
  let running = false;
  return {
    url: (password = PASSWORD) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async start() {
      await pgCtl('-l', join(dir, 'server.log'), '-o', options, 'start');
      running = true;
    },
    async stop() {
      await pgCtl('-m', 'fast', 'stop');
      running = false;
    },
    async remove() {
      if (running) await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
