// A restore beside the files already stored (`npm run restore -- --keep-files`, and the move to PostgreSQL): the
// database comes from the backup, the files stay where they are, checked rather than written (docs/decisions/040).
import type { Queryable } from '../../db/database.ts';
import { readDatabaseMarker } from '../../storage/instance-marker.ts';
import type { Storage } from '../../storage/storage.ts';
import { OperatorError } from './archive.ts';

/** How many keys of each kind of mismatch a refusal names; the rest are counted. */
const NAMED = 10;

const listed = (items: string[]) =>
  items.slice(0, NAMED).join(', ') + (items.length > NAMED ? `, and ${items.length - NAMED} more` : '');

/**
 * Checks each file the backup holds against the store: present, with the size its upload row says. Every mismatch
 * is gathered, so that the refusal names them all (up to ten of each kind) rather than the first.
 */
export function filesInPlaceCheck(storage: Storage) {
  const missing: string[] = [];
  const resized: string[] = [];
  return {
    async check(key: string, size: number): Promise<void> {
      const stored = await storage.size(key);
      if (stored === null) missing.push(key);
      else if (stored !== size) resized.push(`${key} (${stored} bytes, the backup says ${size})`);
    },
    /** Throws, naming every mismatch, unless each file matched; before anything is committed. */
    refuseUnlessAllMatched(): void {
      if (missing.length === 0 && resized.length === 0) return;
      const what = [
        missing.length > 0 ? `${missing.length} missing: ${listed(missing)}` : '',
        resized.length > 0 ? `${resized.length} of another size: ${listed(resized)}` : '',
      ].filter(Boolean);
      throw new OperatorError(
        `The target file storage does not hold this backup's files as they were (${what.join('; ')}). ` +
          'Nothing was restored and no stored file was changed. Point DATA_DIR or STORAGE_URL at the store this ' +
          "backup's files are in, or restore into empty storage without --keep-files.",
      );
    },
  };
}

/**
 * Refuses a store that holds another instance's marker than the backup's (docs/decisions/036): its files would
 * match by chance at best. A store without one, or a backup from before markers, is paired after the load.
 */
export async function refuseAnotherInstance(tx: Queryable, storage: Storage): Promise<void> {
  const [ours, theirs] = await Promise.all([readDatabaseMarker(tx), storage.readMarker()]);
  if (ours && theirs && ours !== theirs)
    throw new OperatorError(
      `The target file storage belongs to another instance (its .easyform-instance says ${theirs}; the backup's ` +
        `instance is ${ours}). Nothing was restored. Point DATA_DIR or STORAGE_URL at the store this backup's ` +
        'files are in.',
    );
}

/** How many stored files no upload of the restored database names (uploaded after the backup was taken). */
export async function countUnnamed(storage: Storage, named: Set<string>): Promise<number> {
  let unnamed = 0;
  for await (const key of storage.keysWrittenBefore(new Date(Date.now() + 86_400_000)))
    if (!named.has(key) && !key.endsWith('.part')) unnamed += 1;
  return unnamed;
}
