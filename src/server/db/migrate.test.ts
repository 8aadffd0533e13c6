import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../test-app.ts';
import { migrate } from './migrate.ts';

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
