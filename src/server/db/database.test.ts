import { describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE } from '../test-app.ts';

describe.runIf(TEST_ENGINE === 'postgres')('the PostgreSQL pool', () => {
  it('keeps serving after the server kills its idle connections, as a PostgreSQL restart does', async () => {
    const t = await createTestApp();
    try {
      // Open a few pooled connections, then have PostgreSQL terminate them while they sit idle.
      await Promise.all([1, 2, 3].map(() => t.app.db.query('select pg_sleep(0.05)')));
      const [terminated] = await t.app.db.query<{ killed: string }>(
        `select count(pg_terminate_backend(pid))::text as killed from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      expect(Number(terminated?.killed)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await t.app.db.query('select 1 as ok')).toEqual([{ ok: 1 }]);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
