import type { Queryable } from './database.ts';

/** A server-wide value kept in the database, created once by whichever process asks first. */
export async function getOrCreateSetting(db: Queryable, key: string, create: () => string): Promise<string> {
  await db.query('insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing', [
    key,
    create(),
  ]);
  const [row] = await db.query<{ value: string }>('select value from app_settings where key = $1', [key]);
  if (!row) throw new Error(`setting ${key} missing after insert`);
  return row.value;
}
