import { execFile, execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, type TestContext } from 'vitest';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { loadConfig } from './runtime/config.ts';
import { startS3TestServer, TEST_BUCKET, type S3TestServer } from './testing/s3-test-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The server as `npm start` runs it: the bundle `npm run build` makes, with the V8 flags scripts/start.mjs gives it
 * (the embedded database's WebAssembly on the baseline compiler alone, a young generation of 8 MiB a semi-space, an
 * old generation that grows by half its live size).
 */
const bundle = join(root, 'dist', 'server', 'app', 'main.js');
const NODE_FLAGS = ['--liftoff-only', '--max-semi-space-size=8', '--heap-growing-percent=50'];

/**
 * Starts the server with `env` and resolves with its exit code, what it printed and when it last printed (the
 * refusal's time, not the exit's: closing down takes a moment more), once it has exited.
 */
async function startWith(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string; saidAt: number }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, bundle], {
    cwd: root,
    // Nothing inherited: the shell's DATABASE_URL or SMTP_URL must not reach it.
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let saidAt = 0;
  const hear = (chunk: Buffer) => {
    output += chunk.toString();
    saidAt = Date.now();
  };
  child.stdout.on('data', hear);
  child.stderr.on('data', hear);
  const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  return { code, output, saidAt };
}

/**
 * A start told not to wait for a service that is not reachable (the default waits two minutes for it, trying again:
 * boot-and-health.test.ts): the refusal a wait ends with, at once.
 */
const NO_WAIT = { STARTUP_WAIT_SECONDS: '0' };

/**
 * The server stopped with exactly one fatal line saying this (every line it wrote is JSON, as in its log), and no
 * stack.
 */
function expectOneLine(result: { code: number | null; output: string }, line: RegExp) {
  expect(result.code, result.output).toBe(1);
  const said = result.output
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as { level?: number; msg?: string };
      } catch {
        throw new Error(`not a JSON line: ${l}\n${result.output}`);
      }
    });
  // Node's own warnings (the AWS SDK's about Node versions) are warning lines (level 40), not the refusal.
  const fatal = said.filter((entry) => entry.level === 60);
  expect(fatal, result.output).toHaveLength(1);
  expect(fatal[0]?.msg).toMatch(line);
  expect(result.output).not.toMatch(/^\s+at /m);
  expect(result.output).not.toContain('"stack"');
}

let dataDir: string;
let busy: Server;
let s3: S3TestServer;
const portOf = (server: Server) => (server.address() as { port: number }).port;
const listen = async (server: Server) =>
  new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

/**
 * A server that takes the connection and never says a word, as a firewall or a stuck proxy can. `since`: when the
 * first connection arrived, so a deadline is timed from there, not from a start slowed by a busy CPU.
 */
async function silentServer(): Promise<{ port: number; since: () => number; close: () => void }> {
  const sockets: Socket[] = [];
  let first = 0;
  const server = createServer((socket) => {
    sockets.push(socket);
    first ||= Date.now();
  });
  await listen(server);
  return {
    port: portOf(server),
    since: () => first,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/**
 * A DATA_DIR `name` holding a migrated embedded database (a copy of one made once here), for a start-up that must
 * get past the database to meet its refusal: initdb and the migrations cost each start several CPU-seconds.
 */
async function withDatabase(name: string): Promise<string> {
  const dir = join(dataDir, name);
  await cp(join(dataDir, 'template', 'pgdata'), join(dir, 'pgdata'), { recursive: true });
  return dir;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'easyform-main-'));
  const template = await openDatabase({ databaseUrl: undefined, dataDir: join(dataDir, 'template') });
  await migrate(template, { timeZone: loadConfig({}).formTimezone }).finally(() => template.close());
  // Builds what changed since the last build (nothing, usually), as `npm start` would before it serves.
  await promisify(execFile)(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: root });
  busy = createServer();
  await listen(busy);
  s3 = await startS3TestServer();
}, 240_000);
afterAll(async () => {
  busy?.close();
  await s3?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/**
 * Runs `work` on a tmpfs mounted (with `options`) at a new directory `name` of the test's data directory, unmounted
 * after. Skipped where even root may not mount (a container without CAP_SYS_ADMIN).
 */
async function onTmpfs(
  context: TestContext,
  name: string,
  options: string,
  work: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = join(dataDir, name);
  await mkdir(dir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    context.skip('this machine does not let the test mount a tmpfs');
  }
  try {
    await work(dir);
  } finally {
    execFileSync('umount', [dir]);
  }
}

describe(
  'a start-up that fails on a setting says which, in one line, and exits 1',
  // Side by side: each is a child process that mostly waits (two of them on 10 s deadlines).
  { timeout: 60_000, concurrent: true },
  () => {
    it('PORT in use', async () => {
      const port = String(portOf(busy));
      expectOneLine(
        await startWith({ PORT: port, HOST: '127.0.0.1', DATA_DIR: await withDatabase('port') }),
        /^PORT \d+ is already in use/,
      );
    });

    it('HOST that cannot be resolved', async () => {
      expectOneLine(
        await startWith({ HOST: 'no-such-host.invalid', DATA_DIR: await withDatabase('host') }),
        /^HOST "no-such-host\.invalid" cannot be resolved$/,
      );
    });

    it('DATA_DIR that is a file', async () => {
      const file = join(dataDir, 'a-file');
      await writeFile(file, 'not a directory');
      expectOneLine(await startWith({ DATA_DIR: file }), /^DATA_DIR \(.*a-file\) is not a directory/);
    });

    // A full disk needs a small file system of its own: a tmpfs, which only root may mount.
    it.skipIf(process.getuid?.() !== 0)('DATA_DIR on a full disk (the embedded database)', (context) =>
      onTmpfs(context, 'small', 'size=2m', async (small) =>
        expectOneLine(
          await startWith({ DATA_DIR: small }),
          /^DATA_DIR \(.*small\) is on a full disk: ENOSPC in the embedded database \(pgdata\)$/,
        ),
      ),
    );

    // Node's recursive mkdir says ENOENT on a read-only file system: start-up printed that as a bug's stack.
    it.skipIf(process.getuid?.() !== 0)('DATA_DIR on a read-only file system', (context) =>
      onTmpfs(context, 'frozen', 'ro,size=1m', async (frozen) =>
        expectOneLine(
          await startWith({ DATA_DIR: frozen }),
          /^DATA_DIR \(.*frozen\) is on a read-only file system: EROFS on .*frozen\/pgdata$/,
        ),
      ),
    );

    it('DATABASE_URL where nothing listens', async () => {
      expectOneLine(
        await startWith({ DATABASE_URL: 'postgres://ef:secret@127.0.0.1:1/easyform', ...NO_WAIT }),
        /^DATABASE_URL: nothing accepts connections at 127\.0\.0\.1:1/,
      );
    });

    it('DATABASE_URL whose host cannot be resolved', async () => {
      expectOneLine(
        await startWith({ DATABASE_URL: 'postgres://ef:secret@no-such-host.invalid/easyform', ...NO_WAIT }),
        /^DATABASE_URL: the host of no-such-host\.invalid:5432 cannot be resolved$/,
      );
    });

    it('DATABASE_URL that takes the connection and never answers: within the 10 s connect timeout', async () => {
      const silent = await silentServer();
      onTestFinished(silent.close);
      const result = await startWith({
        DATABASE_URL: `postgres://ef:secret@127.0.0.1:${silent.port}/easyform`,
        ...NO_WAIT,
      });
      expectOneLine(result, /^DATABASE_URL: 127\.0\.0\.1:\d+ did not answer within 10 s/);
      expect(result.saidAt - silent.since()).toBeLessThan(15_000);
    });

    const s3Env = async (bucket: string, endpoint: string, key = 'S3RVER') => ({
      DATA_DIR: await withDatabase(`s3-${bucket}-${key}-${endpoint.replace(/\W/g, '')}`),
      STORAGE_URL: `s3://${bucket}/p?endpoint=${encodeURIComponent(endpoint)}&region=us-east-1&forcePathStyle=true`,
      AWS_ACCESS_KEY_ID: key,
      AWS_SECRET_ACCESS_KEY: key,
    });
    const s3Endpoint = () => new URL(s3.storageUrl()).searchParams.get('endpoint') ?? '';

    it('STORAGE_URL naming a bucket that does not exist', async () => {
      expectOneLine(
        await startWith(await s3Env('no-such-bucket', s3Endpoint())),
        /^STORAGE_URL: bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+$/,
      );
    });

    it('STORAGE_URL with keys the bucket refuses', async () => {
      expectOneLine(
        await startWith(await s3Env(TEST_BUCKET, s3Endpoint(), 'WRONG')),
        /^STORAGE_URL: access to bucket "easyform-test" was refused: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/,
      );
    });

    it('STORAGE_URL whose endpoint refuses the connection', async () => {
      expectOneLine(
        await startWith({ ...(await s3Env(TEST_BUCKET, 'http://127.0.0.1:1')), ...NO_WAIT }),
        /^STORAGE_URL: nothing accepts connections at http:\/\/127\.0\.0\.1:1$/,
      );
    });

    it('STORAGE_URL whose endpoint takes the connection and never answers: within 10 s', async () => {
      const silent = await silentServer();
      onTestFinished(silent.close);
      const result = await startWith({
        ...(await s3Env(TEST_BUCKET, `http://127.0.0.1:${silent.port}`)),
        ...NO_WAIT,
      });
      expectOneLine(result, /^STORAGE_URL: http:\/\/127\.0\.0\.1:\d+ did not answer within 10 s$/);
      // From the first request on: the SDK's own retries, each waiting its full timeout, would take 30 s or more.
      expect(result.saidAt - silent.since()).toBeLessThan(15_000);
    });
  },
);

describe('a server whose embedded database stops under it', () => {
  it('says why in JSON and exits 1, for its supervisor to start a new one, instead of failing every request', async () => {
    const dir = await withDatabase('lost');
    const child = spawn(process.execPath, [...NODE_FLAGS, bundle], {
      cwd: root,
      env: { NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: '0', DATA_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    onTestFinished(() => void child.kill('SIGKILL'));
    let output = '';
    const serving = new Promise<void>((resolve) => {
      const hear = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Easy Form is running')) resolve();
      };
      child.stdout.on('data', hear);
      child.stderr.on('data', hear);
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await Promise.race([serving, exited]);
    // Someone took the database's lock away (another server, an operator's rm): the engine stops writing at once.
    await rm(join(dir, 'pgdata.lock'), { recursive: true, force: true });
    expect(await exited, output).toBe(1);
    const fatal = output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((entry) => entry.level === 60)
      .map((entry) => entry.msg);
    expect(fatal).toEqual([
      expect.stringMatching(/^Easy Form lost the lock on its database in .*lost\/pgdata; stopping/),
      expect.stringMatching(/^Stopping: The embedded database's thread stopped \(exit code 1\)/),
    ]);
  }, 60_000);
});
