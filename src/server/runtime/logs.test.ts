// The log of a scaled-out server as `npm start` runs it (WORKERS=2 on PostgreSQL, files in S3): every line JSON,
// request ids that never repeat across workers and a restart, X-Request-Id honoured or replaced (issue 35, item 7).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.ts';
import { startS3TestServer, TEST_BUCKET, type S3TestServer } from '../testing/s3-test-server.ts';
import { throwawayDatabase } from '../testing/throwaway-database.ts';

const postgres = process.env.TEST_DATABASE_URL;
if (!postgres)
  console.warn('src/server/runtime/logs.test.ts SKIPPED: WORKERS=2 needs PostgreSQL (TEST_DATABASE_URL)');

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** In DATABASE_URL: the server trusts local connections, so any password works, and none may reach the log. */
const PASSWORD = 'never-in-the-log-7c1e';
const OUR_ID = /^[\w-]{8}-[0-9a-z]+$/;

let database: { url: string; drop(): Promise<void> };
let s3: S3TestServer;
let dataDir: string;
let child: ChildProcess;
let port: number;
let output = '';
let exited: Promise<number | null>;
/** Conditions waiting for the output to satisfy them, checked on each chunk: no waiting on the clock. */
const waiting = new Set<() => void>();

const lines = () => output.split('\n').filter((line) => line.trim() !== '');
const parsed = () =>
  lines().flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
/** The workers the primary has said are serving (read from the raw output, whatever shape its lines have). */
const servingPids = () => [...output.matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));

function until<T>(what: string, found: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = found();
      if (value === undefined) return;
      waiting.delete(check);
      resolve(value);
    };
    waiting.add(check);
    void exited.then((code) => {
      waiting.delete(check);
      reject(new Error(`the server exited (${code}) before ${what}:\n${output}`));
    });
    check();
  });
}

/** A GET on a connection of its own (the primary hands each connection to the next worker). */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; id: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, id: String(res.headers['x-request-id']) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The pid of the worker whose log has a line of the request `id`. */
const pidOf = (id: string) => parsed().find((l) => l.reqId === id)?.pid;

async function idsOf(count: number): Promise<{ id: string; pid: unknown }[]> {
  const answers: { status: number; id: string }[] = [];
  for (let i = 0; i < count; i++) answers.push(await get('/api/health'));
  expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  return until('the requests were logged', () =>
    answers.every((a) => pidOf(a.id) !== undefined)
      ? answers.map((a) => ({ id: a.id, pid: pidOf(a.id) }))
      : undefined,
  );
}

describe.skipIf(!postgres)(
  'the log of WORKERS=2 on PostgreSQL and S3, started as `npm start` runs it',
  () => {
    beforeAll(async () => {
      await promisify(execFile)(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: root });
      database = await throwawayDatabase(postgres ?? '', 'easyform_logs');
      s3 = await startS3TestServer();
      dataDir = await mkdtemp(join(tmpdir(), 'easyform-logs-'));
      port = await freePort();
      const url = new URL(database.url);
      url.password = PASSWORD;
      child = spawn(process.execPath, ['scripts/start.mjs'], {
        cwd: root,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          STORAGE_URL: s3.storageUrl('logs'),
          AWS_ACCESS_KEY_ID: 'S3RVER',
          AWS_SECRET_ACCESS_KEY: 'S3RVER',
          WORKERS: '2',
          LOG_LEVEL: 'info',
          SHUTDOWN_DRAIN_SECONDS: '0',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      exited = new Promise((resolve) => child.once('exit', resolve));
      const hear = (chunk: Buffer) => {
        output += chunk.toString();
        for (const check of [...waiting]) check();
      };
      child.stdout?.on('data', hear);
      child.stderr?.on('data', hear);
      await until('two workers served', () => (servingPids().length >= 2 ? true : undefined));
    }, 240_000);
    afterAll(async () => {
      if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      await database?.drop();
      await s3?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('names the database and the file store at start-up, in one line each worker, without the password', async () => {
      const started = await until('both workers said where their data is', () => {
        const said = parsed().filter((l) => String(l.msg).startsWith('Easy Form is running'));
        return said.length >= 2 ? said : undefined;
      });
      for (const line of started) {
        expect(line.database).toEqual({
          engine: 'postgresql',
          host: '127.0.0.1',
          port: Number(new URL(database.url).port),
          database: new URL(database.url).pathname.slice(1),
        });
        expect(line.storage).toMatchObject({ kind: 's3', bucket: TEST_BUCKET, prefix: 'logs/' });
        expect(String((line.storage as { endpoint: string }).endpoint)).toMatch(
          /^http:\/\/127\.0\.0\.1:\d+$/,
        );
      }
      expect(output).not.toContain(PASSWORD);
    });

    it('gives every request an id no other worker, nor a restarted one, gives, and answers with it', async () => {
      const before = await idsOf(8);
      expect(
        before.every((r) => OUR_ID.test(r.id)),
        JSON.stringify(before),
      ).toBe(true);
      const pids = new Set(before.map((r) => r.pid));
      expect(pids.size).toBe(2);

      // A worker killed is replaced: the new one counts from 1 again, under another prefix.
      const [victim] = servingPids();
      process.kill(victim ?? 0, 'SIGKILL');
      await until('a third worker served', () => (servingPids().length >= 3 ? true : undefined));
      const after = await idsOf(8);
      const newcomer = servingPids()[2];
      expect(after.some((r) => r.pid === newcomer)).toBe(true);
      const ids = [...before, ...after].map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("honours a caller's well-formed X-Request-Id, and replaces a hostile one without logging it", async () => {
      const traced = await get('/api/health', { 'x-request-id': 'edge-7f3a9c2e-0001' });
      expect(traced.id).toBe('edge-7f3a9c2e-0001');
      await until('the traced request was logged', () => pidOf(traced.id));

      const forged = '"},"level":60,"msg":"forged-line';
      for (const hostile of [forged, 'a'.repeat(300)]) {
        const answer = await get('/api/health', { 'x-request-id': hostile });
        expect(answer.id).toMatch(OUR_ID);
        await until('the replaced request was logged', () => pidOf(answer.id));
      }
      expect(output).not.toContain('forged-line');
      expect(output).not.toContain('a'.repeat(300));
    });

    it('stops on SIGTERM, and every line it printed, the primary’s included, is JSON', async () => {
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const notJson = lines().filter((line) => {
        try {
          JSON.parse(line);
          return false;
        } catch {
          return true;
        }
      });
      expect(notJson).toEqual([]);
      const primary = parsed().filter((l) => l.role === 'primary');
      expect(primary.map((l) => l.msg)).toContain('easy-form primary: starting 2 server processes');
      expect(primary.filter((l) => /worker \d+ stopped/.test(String(l.msg)))).toHaveLength(2);
    });
  },
);
