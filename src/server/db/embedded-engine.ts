// The embedded engine (PGlite) in the thread that opens it: the data directory's lock, the durability watch of its
// files (durable-dir.ts) and PostgreSQL itself. A file-backed server runs this in a thread of its own
// (embedded-worker.ts); the test suites' in-memory databases and the power-cut test run it in theirs.
import type { PGlite } from '@electric-sql/pglite';
import { lockDataDir } from './data-dir-lock.ts';
import { watchDataDir, type Disk } from './durable-dir.ts';
import { queryPrepared } from './embedded-prepared.ts';
import type { Database, Queryable, Row } from './queryable.ts';

const DUMP = Symbol('dump');

/**
 * The files of an embedded database, as an image `openDatabase({ memoryImage })` starts from: the test suite migrates
 * one in-memory database per run and starts every test app from its image (0.3-0.5 s instead of initdb's 1-5 s).
 */
export async function dumpMemoryDatabase(db: Database): Promise<Blob> {
  const dump = (db as Database & { [DUMP]?: () => Promise<Blob> })[DUMP];
  if (!dump) throw new Error('only an embedded database can be dumped');
  return dump();
}

const EMBEDDED_SHARED_BUFFERS = '32MB';

export async function openPglite(
  dir: string | undefined,
  lockRetries: number,
  onWait: (message: string) => void,
  disk?: Disk,
  image?: Blob,
): Promise<Database> {
  const unlock = dir === undefined ? async () => undefined : await lockDataDir(dir, lockRetries, onWait);
  // Watched from before it opens: what initdb or crash recovery writes is synced as soon as it has opened.
  const durable = dir !== undefined && disk ? watchDataDir(dir, disk) : null;
  let lite: PGlite;
  try {
    // Loaded here, not at start: a server loads only its own engine's client.
    const { PGlite } = await import('@electric-sql/pglite');
    // 32 MB of shared buffers, not PostgreSQL's 128: each megabyte is zeroed at every start, and a restart after a
    // crash serves 0.45 s sooner (docs/decisions/031-fast-restart.md). The OS's page cache holds the rest.
    const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`];
    lite = await PGlite.create(
      dir === undefined ? { startParams, loadDataDir: image } : { dataDir: dir, startParams },
    );
    durable?.syncAll();
  } catch (error) {
    durable?.release();
    await unlock();
    throw error;
  }
  /** After a write outside a transaction, or a transaction's commit: its WAL on stable storage before we go on. */
  const flushed = async <T>(result: T): Promise<T> => {
    if (durable?.walDirty()) await durable.flushWal();
    return result;
  };
  // The statements this session has prepared (PGlite is one session; its transactions share them).
  const prepared = new Set<string>();
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>, afterWrite: <T>(result: T) => Promise<T>): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = [], options?: { prepare?: string }) {
      const result = options?.prepare
        ? await queryPrepared<T>(q, prepared, options.prepare, sql, params)
        : await q.query<T>(sql, [...params]);
      return afterWrite(result.rows);
    },
    async exec(sql: string) {
      await q.exec(sql);
      await afterWrite(undefined);
    },
  });
  const inTransaction = async <T>(result: T) => result;
  const database: Database = {
    kind: 'pglite',
    ...wrap(lite, flushed),
    poolStats: () => null,
    transaction: async (work) => flushed(await lite.transaction((tx) => work(wrap(tx, inTransaction)))),
    async close() {
      try {
        await lite.close();
        durable?.syncAll();
      } finally {
        durable?.release();
        await unlock();
      }
    },
  };
  return Object.assign(database, { [DUMP]: () => lite.dumpDataDir('none') });
}
