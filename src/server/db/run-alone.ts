import type { Database } from './database.ts';

/**
 * Runs `work` unless another process is running the work of the same `key` right now, in which case it skips it
 * (resolving false). On PostgreSQL the guard is a transaction-level advisory lock, held by a transaction that stays
 * open while `work` runs on other connections and released by its end, even if this process dies; on the embedded
 * engine there is one process, and its one connection must stay free for `work`.
 */
export async function runAlone(db: Database, key: number, work: () => Promise<void>): Promise<boolean> {
  if (db.kind !== 'postgres') {
    await work();
    return true;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ got: boolean }>('select pg_try_advisory_xact_lock($1) as got', [key]);
    if (!row?.got) return false;
    await work();
    return true;
  });
}
