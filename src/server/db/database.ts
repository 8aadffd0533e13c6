import { once } from 'node:events';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Row = Record<string, unknown>;

/** The one data-access surface both drivers satisfy: parameterised SQL in, rows out. */
export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export const MEMORY_DATABASE = 'memory://';

/**
 * `databaseUrl` picks the engine: a postgres:// URL uses that server, `memory://` an in-memory PGlite (tests),
 * and nothing the embedded PGlite persisted under `dataDir`.
 */
export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  /** Told when an idle PostgreSQL connection dies (server restart, admin kill); the pool reconnects by itself. */
  onConnectionError?: (error: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl?.startsWith('postgres'))
    return openPostgres(options.databaseUrl, options.onConnectionError ?? (() => undefined));
  if (options.databaseUrl === MEMORY_DATABASE) return openPglite(undefined);
  const dir = join(options.dataDir, 'pgdata');
  await mkdir(dir, { recursive: true });
  return openPglite(dir);
}

async function openPglite(dir: string | undefined): Promise<Database> {
  const lite = await PGlite.create(dir === undefined ? {} : { dataDir: dir });
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, [...params]);
      return result.rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(lite),
    transaction: (work) => lite.transaction((tx) => work(wrap(tx))),
    close: () => lite.close(),
  };
}

async function openPostgres(url: string, onConnectionError: (error: Error) => void): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // Without a listener, an idle client's error (e.g. PostgreSQL restarting) is an uncaught 'error' event.
  pool.on('error', onConnectionError);
  // pool.end() resolves before its sockets have closed; close() waits for them, so nothing outlives it.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    open.add(client);
    client.once('end', () => open.delete(client));
  });
  // Fail at start-up, with the server's reason, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  const wrap = (q: pg.Pool | pg.PoolClient): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      const result = await q.query<T>(sql, [...params]);
      return result.rows;
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const value = await work(wrap(client));
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async close() {
      const ended = [...open].map((client) => once(client, 'end'));
      await pool.end();
      await Promise.all(ended);
    },
  };
}
