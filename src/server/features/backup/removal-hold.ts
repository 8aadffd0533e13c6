import type { Database } from '../../db/database.ts';
import type { Storage } from '../../storage/storage.ts';

/** Any constant shared by every Easy Form process: held by a backup for as long as it copies files. */
const BACKUP_LOCK_KEY = 7_243_003;

/** Backups running in this process (the embedded engine's: the server itself writes them). */
let localBackups = 0;

/**
 * Runs `work` (a backup) while no process removes a stored file. A backup reads the rows in one snapshot and copies
 * the files they name afterwards; a file whose row is deleted after the snapshot must still be there when its turn
 * comes. Every removal happens after the deletion of its row committed, so checking for a backup at removal time is
 * enough: a backup whose snapshot still saw the row already holds the lock. On PostgreSQL the hold is an advisory
 * lock, seen by every process; on the embedded engine the one process that opened the database is the one backing up.
 */
export async function holdingFileRemovals<T>(db: Database, work: () => Promise<T>): Promise<T> {
  if (db.kind === 'postgres') {
    return db.transaction(async (tx) => {
      await tx.query('select pg_advisory_xact_lock($1)', [BACKUP_LOCK_KEY]);
      return work();
    });
  }
  localBackups += 1;
  try {
    return await work();
  } finally {
    localBackups -= 1;
  }
}

/**
 * `storage` whose removals (and moves into the quarantine) are skipped while a backup runs: the file stays, named by
 * no row, and the hourly sweep of orphan files moves it later (uploads/orphan-sweep.ts).
 */
export function holdRemovalsDuringBackups(db: Database, storage: Storage): Storage {
  const backupRunning = async () => {
    if (db.kind !== 'postgres') return localBackups > 0;
    // Taken and released within this one statement: a removal never waits for a backup, it only looks.
    const [row] = await db.query<{ free: boolean }>('select pg_try_advisory_xact_lock_shared($1) as free', [
      BACKUP_LOCK_KEY,
    ]);
    return row?.free !== true;
  };
  return {
    ...storage,
    async remove(key) {
      if (!(await backupRunning())) await storage.remove(key);
    },
    async quarantine(key) {
      if (!(await backupRunning())) await storage.quarantine(key);
    },
  };
}
