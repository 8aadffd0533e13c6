// Issue 35, item 4, on the server as `npm start` runs it (the bundle scripts/start.mjs builds and runs), with a
// PostgreSQL server and an S3-protocol server of the test's own that come up after it starts: the start waits for
// them, and refuses at once what no wait mends. One server serves every check, in order.
import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../e2e/support/server.ts';
import {
  createTestPostgresServer,
  hasPostgresBinaries,
  type TestPostgresServer,
} from './db/test-postgres-server.ts';
import { freePort } from './free-port.ts';
import { startS3TestServer, type S3TestServer } from './storage/s3-test-server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

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
      env: { DATABASE_URL: pg.url(), STORAGE_URL: s3.storageUrl() },
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
    expect(await get(server.url, '/api/health')).toMatchObject({
      status: 200,
      body: { ok: true, db: 'postgres' },
    });
  }, 180_000);

  it('refuses a wrong password at once, in one line, without waiting', async () => {
    const failed = await startServer({
      env: { DATABASE_URL: pg.url('not-the-password'), STORAGE_URL: s3.storageUrl() },
    }).then(
      () => new Error('it started'),
      (error: unknown) => error as Error,
    );
    expect(failed.message).toMatch(/exited with 1\b/);
    expect(failed.message).toMatch(/^DATABASE_URL: password authentication failed for user "postgres"$/m);
    expect(failed.message).not.toMatch(/unreachable at start-up/);
  }, 60_000);
});
