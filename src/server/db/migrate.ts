import { readdir, readFile } from 'node:fs/promises';
import type { Database } from './database.ts';

// Relative to this file, or to the server bundle scripts/start.mjs builds at the same depth (it copies the migrations).
const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);
const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);
// Any constant shared by every Easy Form process; two processes starting together queue on it.
const MIGRATION_LOCK_KEY = 7_243_001;

/** Thrown when the database has migrations this version does not know: a newer version ran on it. */
export class SchemaTooNewError extends Error {}

/** The migrations this version knows, in the order they apply. */
export const migrationNames = async (dir: URL = MIGRATIONS_DIR) =>
  (await readdir(dir)).filter((name) => /^\d{3}-[a-z0-9-]+\.sql$/.test(name)).sort();

export const appVersion = async () =>
  (JSON.parse(await readFile(PACKAGE_JSON, 'utf8')) as { version: string }).version;

/**
 * Applies the pending migrations in name order, in one transaction, under an advisory lock. Returns their names.
 * `timeZone` (FORM_TIMEZONE) is readable by the migrations as `current_setting('easyform.form_timezone')`: a
 * backfill of per-day counts needs the day as the app counts it. `dir` (a file URL ending in `/`) is for tests; the
 * app uses its own migrations. `until` stops after that migration (a restore loads a backup into the schema it was
 * taken from, then applies the rest).
 */
export async function migrate(
  db: Database,
  options: { timeZone?: string; dir?: URL; until?: string } = {},
): Promise<string[]> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const files = await migrationNames(dir);
  const until = options.until;
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query("select set_config('easyform.form_timezone', $1, true)", [options.timeZone ?? '']);
    await tx.query(
      `create table if not exists schema_migrations (
         name text primary key,
         applied_at timestamptz not null default now()
       )`,
    );
    // Which version applied each migration, so an older one can name the newer one it must not run over.
    await tx.query('alter table schema_migrations add column if not exists app_version text');
    const rows = await tx.query<{ name: string; app_version: string | null }>(
      'select name, app_version from schema_migrations order by name',
    );
    const version = await appVersion();
    const unknown = rows.filter((r) => !files.includes(r.name));
    if (unknown.length > 0) {
      const newest = unknown.at(-1);
      const by = newest?.app_version ? `Easy Form ${newest.app_version}` : 'a newer Easy Form';
      throw new SchemaTooNewError(
        `This database was upgraded by ${by} (schema ${newest?.name}); this is Easy Form ${version}, which knows ` +
          `the schema up to ${files.at(-1) ?? 'none'}. Start ${by} or later, or restore a backup taken before ` +
          'the upgrade (docs/operations.md: Upgrade).',
      );
    }
    const done = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    for (const name of files.filter((f) => !done.has(f) && (until === undefined || f <= until))) {
      // Whole, never split here: only PostgreSQL's parser knows where a string literal or a function body ends.
      await tx.exec(await readFile(new URL(name, dir), 'utf8'));
      await tx.query('insert into schema_migrations (name, app_version) values ($1, $2)', [name, version]);
      applied.push(name);
    }
    return applied;
  });
}
