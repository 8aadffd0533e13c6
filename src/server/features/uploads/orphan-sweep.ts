import type { Storage } from '../../storage/storage.ts';
import { hasUploads, knownStorageKeys } from './repository.ts';
import type { SweepDeps } from './service.ts';
import { pairWithStore } from './store-pairing.ts';

/**
 * A file in the store that no upload row names is moved to the quarantine once it is this old. Every such file is a
 * leftover: an upload whose row could not be written, a partial upload cut off by a crash, or the file of a deleted
 * form or stale upload when the process stopped between deleting the row and the file. The hour leaves an upload in
 * progress (written, row not yet inserted) well alone.
 */
export const ORPHAN_FILE_GRACE_MS = 60 * 60 * 1000;
/** How long a file stays in the quarantine before a sweep deletes it (docs/operations.md: getting one back). */
export const QUARANTINE_DAYS = 7;
/**
 * The most one pass moves: a tenth of the files it looked at, but at least 10 (or a small store could never be
 * cleaned) and at most 10,000 (the keys it holds in memory, and an hour's work). Leftovers are a handful a crash;
 * a pass finding more than its share moves its share and says so, and the next pass goes on.
 */
export const ORPHAN_PASS_SHARE = 0.1;
export const ORPHAN_PASS_FLOOR = 10;
export const ORPHAN_PASS_CAP = 10_000;
/** Storage keys checked against the database per query. */
const ORPHAN_CHECK_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** What a pass did: files moved to the quarantine and deleted from it, or why it touched nothing. */
export type FileSweep = { moved: number; purged: number; skipped: string | null };

const ADVICE =
  'No stored file is moved or deleted until they match. Check DATABASE_URL, DATA_DIR and STORAGE_URL; to start ' +
  'from a backup, restore it into an empty database and file store first (docs/operations.md, Restore)';

function skip(deps: SweepDeps, problem: string): FileSweep {
  deps.log.error(`The file sweep is off: ${problem}. ${ADVICE}`);
  return { moved: 0, purged: 0, skipped: problem };
}

/**
 * Moves files older than the grace period that no upload row names into the quarantine, a bounded share a pass, and
 * deletes what has been there for QUARANTINE_DAYS. Touches nothing unless the database and the store belong to one
 * instance (store-pairing.ts) and the database names at least one upload.
 */
export async function sweepOrphanFiles(deps: SweepDeps, now = new Date()): Promise<FileSweep> {
  const cutoff = new Date(now.getTime() - ORPHAN_FILE_GRACE_MS);
  const pairing = await pairWithStore(deps.db, deps.storage, cutoff);
  if (!pairing.paired) return skip(deps, pairing.problem);
  const anyUpload = await hasUploads(deps.db);
  let looked = 0;
  let found = 0;
  const orphans: string[] = [];
  let batch: string[] = [];
  const check = async () => {
    const known = await knownStorageKeys(deps.db, batch);
    for (const key of batch.filter((k) => !known.has(k))) {
      found += 1;
      if (orphans.length < ORPHAN_PASS_CAP) orphans.push(key);
    }
    batch = [];
  };
  for await (const key of deps.storage.keysWrittenBefore(cutoff)) {
    if (!anyUpload)
      return skip(
        deps,
        'the database names no uploaded file, but the file store holds files older than an hour',
      );
    looked += 1;
    batch.push(key);
    if (batch.length >= ORPHAN_CHECK_BATCH) await check();
  }
  await check();
  const share = Math.max(ORPHAN_PASS_FLOOR, Math.floor(looked * ORPHAN_PASS_SHARE));
  const moving = orphans.slice(0, Math.min(ORPHAN_PASS_CAP, share));
  await moveToQuarantine(deps.storage, moving);
  if (found > moving.length) {
    deps.log.warn(
      { found, moved: moving.length, stored: looked },
      `${found} of ${looked} stored files are named by no upload; this pass moved ${moving.length} to the quarantine, the most one pass may`,
    );
  } else if (moving.length > 0) {
    deps.log.info({ count: moving.length }, 'moved files no upload names to the quarantine');
  }
  const purged = await deps.storage.purgeQuarantine(new Date(now.getTime() - QUARANTINE_DAYS * DAY_MS));
  if (purged > 0)
    deps.log.info({ count: purged }, `deleted files quarantined over ${QUARANTINE_DAYS} days ago`);
  return { moved: moving.length, purged, skipped: null };
}

async function moveToQuarantine(storage: Storage, keys: readonly string[]): Promise<void> {
  for (let at = 0; at < keys.length; at += 50)
    await Promise.all(keys.slice(at, at + 50).map((key) => storage.quarantine(key)));
}
