import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database.ts';
import { getOrCreateSetting } from '../db/settings.ts';
import type { Storage } from './storage.ts';

/**
 * The `app_settings` row that holds the instance's id; the file store holds the same id beside its files
 * (docs/decisions/036). Made at an instance's first start, never by a migration: databases copied from one migrated
 * template (the tests do) must not share one.
 */
export const INSTANCE_SETTING = 'instance_id';

export const newInstanceId = () => randomUUID();

export async function readDatabaseMarker(db: Queryable): Promise<string | null> {
  const [row] = await db.query<{ value: string }>('select value from app_settings where key = $1', [
    INSTANCE_SETTING,
  ]);
  return row?.value ?? null;
}

/** The database's instance id, written with `create()` first if it has none (whichever process asks first wins). */
export const databaseMarkerOr = (db: Queryable, create: () => string) =>
  getOrCreateSetting(db, INSTANCE_SETTING, create);

/**
 * After a restore has loaded its rows (`tx`) and stored its files: the database and the store get the same id, the
 * backup's (the instance it was taken from), or for a backup from before markers the store's or a new one. Returns
 * the store's marker from before, for putting it back if the restore then fails.
 */
export async function pairRestored(tx: Queryable, storage: Storage): Promise<{ before: string | null }> {
  const before = await storage.readMarker();
  const id = await databaseMarkerOr(tx, () => before ?? newInstanceId());
  if (id !== before) await storage.writeMarker(id);
  return { before };
}
