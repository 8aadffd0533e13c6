import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../test-app.ts';
import { migrate, splitStatements } from './migrate.ts';

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
});

describe('splitStatements', () => {
  it('ends statements at a line ending in ; but not inside a $$ function body', () => {
    const sql = [
      '-- a comment; not a statement',
      'create table t (a int);',
      'create function f() returns trigger language plpgsql as $$',
      'begin',
      '  update t set a = 1;',
      '  return null;',
      'end $$;',
      'alter table t add column b int;',
    ].join('\n');
    expect(splitStatements(sql)).toEqual([
      'create table t (a int)',
      'create function f() returns trigger language plpgsql as $$\nbegin\n  update t set a = 1;\n  return null;\nend $$',
      'alter table t add column b int',
    ]);
  });
});
