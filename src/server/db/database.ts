import { once } from 'node:events';
import { join } from 'node:path';
import type { Pool, PoolClient } from 'pg';
import { StartupError } from '../runtime/config.ts';
import { makeDirectory } from '../runtime/make-directory.ts';
import type { Disk } from './durable-dir.ts';
import { openPglite } from './embedded-engine.ts';
import { openEmbeddedThread } from './embedded-thread.ts';
import type { Database, Queryable, Row } from './queryable.ts';

export { DatabaseInUseError } from './data-dir-lock.ts';
export { dumpMemoryDatabase } from './embedded-engine.ts';

export type { Database, Queryable, Row } from './queryable.ts';

export const MEMORY_DATABASE = 'memory://';

/**
 * `databaseUrl` picks the engine: a postgres:// URL uses that server, `memory://` an in-memory PGlite (tests),
 * and nothing the embedded PGlite persisted under `dataDir`.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /**
   * How long a server may wait for PostgreSQL's answer to one query before the query fails and its connection is
   * dropped (a frozen server, a cut network); unset, it waits as long as it takes (the CLI's bulk copies).
   */
  databaseQueryTimeoutMs?: number;
  /** Told when an idle PostgreSQL connection dies (server restart, admin kill); the pool reconnects by itself. */
  onConnectionError?: (error: Error) => void;
  /** How often to try again for the embedded database's lock before giving up (tests make it 0). */
  lockRetries?: number;
  /** Told when the embedded database is locked and the server waits to see whether the lock goes stale. */
  onLockWait?: (message: string) => void;
  /**
   * Told when the embedded engine's thread stops while open (its lock taken away, its memory exhausted): every later
   * statement fails at once. Unset, those failures are all that says so.
   */
  onEngineLost?: (error: Error) => void;
  /** The embedded engine's writes are made durable before they are answered (durable-dir.ts); on by default. */
  embeddedSync?: boolean;
  /** Where the embedded engine's syncs go: the real disk, or the power-cut test's model of one. */
  disk?: Disk;
  /**
   * For `memory://` only: the files of an embedded database to start from (`dumpMemoryDatabase`), instead of a fresh
   * initdb. The test suite starts every test app from one migrated copy (test-app.ts).
   */
  memoryImage?: Blob;
}): Promise<Database> {
  if (options.databaseUrl?.startsWith('postgres'))
    return openPostgres(
      options.databaseUrl,
      options.onConnectionError ?? (() => undefined),
      options.databaseQueryTimeoutMs,
    );
  const onWait = options.onLockWait ?? ((message: string) => console.warn(message));
  if (options.databaseUrl === MEMORY_DATABASE)
    return openPglite(undefined, 0, onWait, undefined, options.memoryImage);
  const dir = join(options.dataDir, 'pgdata');
  await makeDirectory(dir);
  const lockRetries = options.lockRetries ?? 7;
  // The power-cut test's model of a disk lives in this thread: that database stays here too.
  if (options.disk)
    return openPglite(dir, lockRetries, onWait, options.embeddedSync === false ? undefined : options.disk);
  return openEmbeddedThread({
    dir,
    lockRetries,
    sync: options.embeddedSync !== false,
    onWait,
    onLost: options.onEngineLost ?? (() => undefined),
  });
}

/** How long connecting to PostgreSQL may take, at start-up or later. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** Why PostgreSQL could not be reached, in an operator's words; never the password. */
export function postgresConnectFailure(url: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  let where = 'the server';
  try {
    const parsed = new URL(url);
    where = `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    // pg reads URLs that WHATWG's URL does not; the message then says "the server"
  }
  const text = typeof message === 'string' ? message : String(error);
  // PostgreSQL's own answer (SQLSTATE: 28P01 wrong password, 3D000 no such database, 28000 no pg_hba entry…).
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return text;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host of ${where} cannot be resolved`;
  if (code === 'ECONNREFUSED') return `nothing accepts connections at ${where} (is PostgreSQL running?)`;
  if (code === 'ETIMEDOUT' || /timeout/i.test(text))
    return `${where} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s (is it PostgreSQL, and reachable?)`;
  return `cannot connect to ${where}: ${text}`;
}

/** The server's wait for one query's answer: far above any of its queries, well below a customer's patience. */
export const QUERY_TIMEOUT_MS = 30_000;

async function openPostgres(
  url: string,
  onConnectionError: (error: Error) => void,
  queryTimeoutMs: number | undefined,
): Promise<Database> {
  // Named per process, so an operator (and the scale-out test) can tell the app's processes apart in
  // pg_stat_activity.
  const { default: pg } = await import('pg');
  // A server that takes the connection and never answers (a firewall, a stuck proxy) fails a connect after this long,
  // rather than hanging the start-up or a request for ever. It also bounds a wait for a free pooled connection.
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    application_name: `easy-form ${process.pid}`,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A server that stops answering on an open connection (frozen, or the network cut without a reset) fails the
    // query rather than holding its request for ever; the pool then drops that connection.
    query_timeout: queryTimeoutMs,
  });
  // Without a listener, an idle client's error (e.g. PostgreSQL restarting) is an uncaught 'error' event.
  pool.on('error', onConnectionError);
  // pool.end() resolves before its sockets have closed; close() waits for them, so nothing outlives it.
  const open = new Set<PoolClient>();
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  // Fail at start-up, with the server's reason in one line naming DATABASE_URL, rather than on the first request.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StartupError(`DATABASE_URL: ${postgresConnectFailure(url, error)}`, { cause: error });
  }
  const wrap = (q: Pool | PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = [], options?: { prepare?: string }) {
      const result = options?.prepare
        ? await q.query<T>({ name: options.prepare, text: sql, values: [...params] })
        : await q.query<T>(sql, [...params]);
      return result.rows;
    },
    async exec(sql: string) {
      // No values: pg then uses the simple query protocol, which takes several statements in one text.
      await q.query(sql);
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async transaction(work) {
      const client = await pool.connect();
      // A checked-out client has no pool listener: if PostgreSQL ends its connection (a restart, an operator's
      // pg_terminate_backend) between two statements, its 'error' would be uncaught and its 'end' never come. The
      // broken client is then destroyed on release instead of going back to the pool.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
        onConnectionError(error);
      };
      client.on('error', onError);
      try {
        await client.query('begin');
        const value = await work(wrap(client));
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch((rollbackError: unknown) => {
          broken ??= rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
        });
        throw error;
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    async close() {
      const ended = [...open].map((client) => once(client, 'end'));
      await pool.end();
      await Promise.all(ended);
    },
  };
}
