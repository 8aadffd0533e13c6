import { copyFile, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../testing/test-app.ts';
import type { Database } from './database.ts';
import { migrate, SchemaTooNewError } from './migrate.ts';

const APP_MIGRATIONS = new URL('./migrations/', import.meta.url);

/** Runs `check` with `migrate` over the app's migrations and `files`, on a fresh database already migrated. */
async function withMigrationFiles(
  files: Record<string, string>,
  check: (db: Database, run: () => Promise<string[]>) => Promise<void>,
) {
  const t = await createTestApp();
  const dir = await mkdtemp(join(tmpdir(), 'easyform-migrations-'));
  try {
    for (const name of await readdir(APP_MIGRATIONS))
      await copyFile(new URL(name, APP_MIGRATIONS), join(dir, name));
    for (const [name, sql] of Object.entries(files)) await writeFile(join(dir, name), sql);
    await check(t.app.db, () => migrate(t.app.db, { dir: pathToFileURL(`${dir}/`) }));
  } finally {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  }
}

describe(`migrations on ${TEST_ENGINE}`, () => {
  it('are applied once: running them again, even twice at the same time, applies nothing', async () => {
    const t = await createTestApp();
    try {
      const applied = await t.app.db.query<{ name: string }>(
        'select name from schema_migrations order by name',
      );
      expect(applied.map((r) => r.name)).toContain('001-accounts.sql');
      expect(await Promise.all([migrate(t.app.db), migrate(t.app.db)])).toEqual([[], []]);
    } finally {
      await t.close();
    }
  });

  it('run each file whole: `--` and `;` in strings and function bodies stay text', async () => {
    const sql = [
      '-- A comment; not a statement.',
      "create table migration_probe (note text not null default 'a -- b; c');",
      "insert into migration_probe (note) values ('keep -- this; and this'), (default);",
      'create function migration_probe_mark() returns trigger language plpgsql as $$',
      'begin',
      "  new.note := new.note || ' -- marked;';",
      '  return new;',
      'end $$;',
      'create trigger migration_probe_mark before insert on migration_probe',
      '  for each row execute function migration_probe_mark();',
      "insert into migration_probe (note) values ('third'); -- a comment after a statement",
    ].join('\n');
    await withMigrationFiles({ '900-literal-dashes.sql': sql }, async (db, run) => {
      expect(await run()).toEqual(['900-literal-dashes.sql']);
      expect(await db.query('select note from migration_probe order by note')).toEqual([
        { note: 'a -- b; c' },
        { note: 'keep -- this; and this' },
        { note: 'third -- marked;' },
      ]);
      expect(
        await db.query("select name from schema_migrations where name = '900-literal-dashes.sql'"),
      ).toHaveLength(1);
      expect(await run()).toEqual([]);
    });
  });

  it('apply a file all or nothing: a failing statement undoes the file and records nothing', async () => {
    const sql = 'create table migration_half (a int);\ninsert into migration_half values (1 / 0);';
    await withMigrationFiles({ '901-fails.sql': sql }, async (db, run) => {
      await expect(run()).rejects.toThrow(/division by zero/);
      expect(await db.query("select to_regclass('migration_half') as found")).toEqual([{ found: null }]);
      expect(await db.query("select name from schema_migrations where name = '901-fails.sql'")).toEqual([]);
    });
  });

  it('refuse to run an older version on a database a newer one upgraded, naming both versions', async () => {
    await withMigrationFiles(
      { '950-from-the-future.sql': 'create table future_thing (a int);' },
      async (db, run) => {
        // The newer version upgrades the database...
        expect(await run()).toEqual(['950-from-the-future.sql']);
        await db.query(
          `update schema_migrations set app_version = '9.9.0' where name = '950-from-the-future.sql'`,
        );
        // ...and this version, which does not know 950, refuses rather than run on a schema it does not know.
        const older = migrate(db);
        await expect(older).rejects.toBeInstanceOf(SchemaTooNewError);
        await expect(older).rejects.toThrow(
          /upgraded by Easy Form 9\.9\.0 \(schema 950-from-the-future\.sql\); this is Easy Form \d+\.\d+\.\d+, which knows the schema up to \d{3}-/,
        );
      },
    );
  });
});
