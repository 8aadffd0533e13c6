import type { Queryable } from '../../db/database.ts';
import { databaseMarkerOr, newInstanceId, readDatabaseMarker } from '../../storage/instance-marker.ts';
import type { Storage } from '../../storage/storage.ts';
import { hasUploads, knownStorageKeys } from './repository.ts';

/** Whether the database and the file store are one instance's; if not, what does not match, in an operator's words. */
export type Pairing = { paired: true; id: string } | { paired: false; problem: string };

const KEYS_PER_CHECK = 500;

async function holdsAny(keys: AsyncIterable<string>): Promise<boolean> {
  for await (const key of keys) return key !== '';
  return false;
}

const differ = (inDatabase: string, inStore: string | null): Pairing => ({
  paired: false,
  problem: `the database belongs to instance ${inDatabase} and the file store to ${inStore ?? 'none'}`,
});

/**
 * Whether the store holds a file at all, and one the database names; listed in batches, ending at the first shared
 * file. Only asked while a marker is missing on one side: at a first start, an upgrade, or a pair that is wrong.
 */
async function whatTheStoreHolds(
  db: Queryable,
  storage: Storage,
): Promise<{ any: boolean; shared: boolean }> {
  let any = false;
  let batch: string[] = [];
  const shares = async () => {
    const known = await knownStorageKeys(db, batch);
    batch = [];
    return known.size > 0;
  };
  for await (const key of storage.keysWrittenBefore(new Date(Date.now() + 86_400_000))) {
    any = true;
    batch.push(key);
    if (batch.length >= KEYS_PER_CHECK && (await shares())) return { any, shared: true };
  }
  return { any, shared: await shares() };
}

/**
 * Checks that the database and the file store belong to one instance, and gives a side without a marker the other's
 * (or a new id, when neither has one) where that is plainly safe: the side is unused, or the store holds files the
 * database names (an instance from before markers). A used store beside a database that names none of its files,
 * markers that differ, or a database naming files beside an empty store, do not match. `cutoff`: files written
 * after it may be uploads whose rows are still being written, and do not make a store "used".
 */
export async function pairWithStore(db: Queryable, storage: Storage, cutoff: Date): Promise<Pairing> {
  const [inDatabase, inStore] = await Promise.all([readDatabaseMarker(db), storage.readMarker()]);
  if (inDatabase && inStore)
    return inDatabase === inStore ? { paired: true, id: inDatabase } : differ(inDatabase, inStore);
  const [uploads, held] = await Promise.all([hasUploads(db), whatTheStoreHolds(db, storage)]);
  if (!held.shared) {
    if (await holdsAny(storage.keysWrittenBefore(cutoff))) {
      return {
        paired: false,
        problem: uploads
          ? 'the database names none of the files the file store holds'
          : 'the file store holds files but the database names no uploaded file (a new or empty database)',
      };
    }
    if (uploads && !held.any)
      return { paired: false, problem: 'the database names uploaded files but the file store holds none' };
  }
  const id = await databaseMarkerOr(db, () => inStore ?? newInstanceId());
  if (inStore) return id === inStore ? { paired: true, id } : differ(id, inStore);
  await storage.writeMarker(id);
  // Another instance may have written its own into the same empty store at the same moment: the last write wins.
  const written = await storage.readMarker();
  return written === id ? { paired: true, id } : differ(id, written);
}
