// Issue 35, items 4–6, on the server as `npm start` runs it (the bundle scripts/start.mjs builds and runs), with a
// PostgreSQL server and an S3-protocol server of the test's own that come up after it starts, go away and come back:
// the start waits for them, readiness says when they are away while liveness stays 200, and a SIGTERM drains the
// keep-alive connections open at the time without resetting one. One server serves every check, in order.
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../e2e/support/server.ts';
import { freePort } from '../testing/free-port.ts';
import { startS3TestServer, type S3TestServer } from '../testing/s3-test-server.ts';
import {
  createTestPostgresServer,
  hasPostgresBinaries,
  type TestPostgresServer,
} from '../testing/test-postgres-server.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

type Answer = { status: number; connection: string | undefined; body: unknown };

/**
 * GET `path` over node:http: on `agent`'s pooled keep-alive connections, or on a connection of its own. Every socket
 * error (a reset above all) is kept in `errors` as well as failing the request.
 */
const errors: string[] = [];
function get(base: string, path: string, agent?: Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: agent ?? false }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) }),
      );
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      errors.push(`${path}: ${error.code ?? error.message}`);
      reject(error);
    });
    req.end();
  });
}

/** Asks `ask` again, a tenth of a second apart, until `done` holds for its answer (the test's timeout bounds it). */
async function until<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  for (;;) {
    const answer = await ask();
    if (done(answer)) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A readiness body on this PostgreSQL: every check ok but those `away`. */
const checks = (away: { database?: string; storage?: string }) => ({
  ok: Object.keys(away).length === 0,
  db: 'postgres',
  database: 'ok',
  storage: 'ok',
  disk: 'ok',
  ...away,
});

/** The readiness answer, once it has this status. */
const readiness = (status: number) =>
  until(
    () => get(server.url, '/api/health/ready'),
    (answer) => answer.status === status,
  );

let pg: TestPostgresServer;
let s3: S3TestServer;
let server: RunningServer;
let output = '';
const listeners = new Set<() => void>();

/** The first whole line the server printed that matches `pattern`, once it has printed it. */
function heard(pattern: RegExp): Promise<string> {
  return new Promise((resolve) => {
    const look = () => {
      const line = output.split('\n').find((l, i, all) => i < all.length - 1 && pattern.test(l));
      if (line === undefined) return;
      listeners.delete(look);
      resolve(line);
    };
    listeners.add(look);
    look();
  });
}

describe.runIf(hasPostgresBinaries)('a server whose database and file storage come and go', () => {
  beforeAll(async () => {
    // Builds what changed since the last build (nothing, usually), so the start below only serves.
    await promisify(execFile)(process.execPath, ['scripts/start.mjs', '--build-only'], { cwd: root });
    pg = await createTestPostgresServer();
    s3 = await startS3TestServer({ port: await freePort(), running: false });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.remove();
    await s3?.close();
  });

  it('waits for PostgreSQL and S3 that come up after it starts, saying each time what it waits for, then serves', async () => {
    const starting = startServer({
      env: { DATABASE_URL: pg.url(), STORAGE_URL: s3.storageUrl(), SHUTDOWN_DRAIN_SECONDS: '4' },
      onOutput: (text) => {
        output += text;
        for (const look of [...listeners]) look();
      },
    });
    // A server that stops (or serves) before it said what it waits for fails the test at once.
    const before = (pattern: RegExp) =>
      Promise.race([
        heard(pattern),
        starting.then(() => Promise.reject(new Error(`served before ${pattern}`))),
      ]);
    starting.catch(() => undefined); // awaited below, once both are up
    const database = await before(/database unreachable at start-up/);
    await pg.start();
    const storage = await before(/file storage unreachable at start-up/);
    await s3.up();
    server = await starting;

    // One JSON line a try: what is unreachable, why, and when the next try is.
    for (const [line, service, reason] of [
      [database, 'database', /^DATABASE_URL: nothing accepts connections at 127\.0\.0\.1:\d+/],
      [storage, 'file storage', /^STORAGE_URL: nothing accepts connections at http:\/\/127\.0\.0\.1:\d+$/],
    ] as const) {
      const entry = JSON.parse(line) as { time: number; nextTryAt: string };
      expect(entry).toMatchObject({ level: 40, service, reason: expect.stringMatching(reason) });
      expect(Date.parse(entry.nextTryAt)).toBeGreaterThan(entry.time);
    }
    const ready = await get(server.url, '/api/health/ready');
    expect(ready).toMatchObject({ status: 200 });
    expect(ready.body).toEqual(checks({}));
  }, 180_000);

  it('refuses a wrong password at once, in one line, without waiting', async () => {
    const failed = await startServer({
      env: { DATABASE_URL: pg.url('not-the-password'), STORAGE_URL: s3.storageUrl() },
    }).then(
      () => new Error('it started'),
      (error: unknown) => error as Error,
    );
    expect(failed.message).toMatch(/exited with 1\b/);
    expect(failed.message).toMatch(
      /"msg":"DATABASE_URL: password authentication failed for user \\"postgres\\""}$/m,
    );
    expect(failed.message).not.toMatch(/unreachable at start-up/);
  }, 60_000);

  it('answers readiness 503 while PostgreSQL is stopped and 200 once it is back; liveness 200 throughout', async () => {
    const live = async () => {
      expect(await get(server.url, '/api/health/live')).toMatchObject({ status: 200, body: { ok: true } });
    };
    await pg.stop();
    const down = await readiness(503);
    expect(down.body).toEqual(checks({ database: 'unreachable' }));
    // /api/health is the readiness answer, in the shape it always had (`ok`, `db`, `database`).
    expect(await get(server.url, '/api/health')).toMatchObject({
      status: 503,
      body: { ok: false, db: 'postgres' },
    });
    await live();
    await pg.start();
    await readiness(200);
    await live();
  }, 60_000);

  it('answers readiness 503 while the S3 endpoint is down, naming the storage, and 200 once it is back', async () => {
    await s3.down();
    const down = await readiness(503);
    expect(down.body).toEqual(checks({ storage: 'unreachable' }));
    expect(await get(server.url, '/api/health/live')).toMatchObject({ status: 200 });
    await s3.up();
    await readiness(200);
  }, 60_000);

  it('on SIGTERM drains with readiness at 503, answers every request on the keep-alive connections open, resets none, and exits 0', async () => {
    // Four keep-alive connections, idle once answered: a proxy's pool of connections to this process.
    const pool = new Agent({ keepAlive: true, maxSockets: 4 });
    const before = await Promise.all([1, 2, 3, 4].map(() => get(server.url, '/api/health/live', pool)));
    expect(before.map((a) => a.connection)).toEqual(['keep-alive', 'keep-alive', 'keep-alive', 'keep-alive']);
    // A fifth whose request is still arriving (its headers cut short) when the server stops listening.
    const { port } = new URL(server.url);
    const slow: Socket = connect(Number(port), '127.0.0.1');
    let slowAnswer = '';
    slow.on('data', (chunk: Buffer) => (slowAnswer += chunk.toString()));
    slow.on('error', (error: NodeJS.ErrnoException) => errors.push(`slow: ${error.code ?? error.message}`));
    const slowEnded = new Promise((resolve) => slow.once('end', resolve));
    await new Promise<void>((resolve) =>
      slow.write('GET /api/health/live HTTP/1.1\r\nHost: x\r\n', () => resolve()),
    );

    const exit = server.signal('SIGTERM');
    const draining = await readiness(503);
    expect(draining.body).toEqual({ ok: false, db: 'postgres', draining: true });
    expect(await get(server.url, '/api/health/live')).toMatchObject({ status: 200, connection: 'close' });
    // The pooled connections carry one more request each: answered, and closed with the answer.
    const during = await Promise.all([1, 2, 3, 4].map(() => get(server.url, '/api/health/live', pool)));
    expect(during.map((a) => `${a.status} ${a.connection}`)).toEqual(Array(4).fill('200 close'));

    // Once the drain is over the server stops listening; the request still arriving then is answered all the same.
    await until(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = connect(Number(port), '127.0.0.1');
          probe.once('connect', () => {
            probe.destroy();
            resolve(false);
          });
          probe.once('error', () => resolve(true));
        }),
      (refused) => refused,
    );
    slow.write('\r\n');
    await slowEnded;
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(slowAnswer).toMatch(/^connection: close\r$/im);
    expect(await exit, server.output().split('\n').slice(-20).join('\n')).toBe(0);
    expect(errors).toEqual([]);
    pool.destroy();
  }, 60_000);
});
