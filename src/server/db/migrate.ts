import { readdir, readFile } from 'node:fs/promises';
import type { Database } from './database.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
// Any constant shared by every Easy Form process; two processes starting together queue on it.
const MIGRATION_LOCK_KEY = 7_243_001;

/**
 * Applies the pending migrations in name order, in one transaction, under an advisory lock. Returns their names.
 * `timeZone` (FORM_TIMEZONE) is readable by the migrations as `current_setting('easyform.form_timezone')`: a
 * backfill of per-day counts needs the day as the app counts it. `dir` (a file URL ending in `/`) is for tests; the
 * app uses its own migrations.
 */
export async function migrate(
  db: Database,
  options: { timeZone?: string; dir?: URL } = {},
): Promise<string[]> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const files = (await readdir(dir)).filter((name) => /^\d{3}-[a-z0-9-]+\.sql$/.test(name)).sort();
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query("select set_config('easyform.form_timezone', $1, true)", [options.timeZone ?? '']);
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    const done = new Set(
      (await tx.query<{ name: string }>('select name from schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const name of files.filter((f) => !done.has(f))) {
      // Whole, never split here: only PostgreSQL's parser knows where a string literal or a function body ends.
      await tx.exec(await readFile(new URL(name, dir), 'utf8'));
      await tx.query('insert into schema_migrations (name) values ($1)', [name]);
      applied.push(name);
    }
    return applied;
  });
}
