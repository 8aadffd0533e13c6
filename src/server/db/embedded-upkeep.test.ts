import { describe, expect, it } from 'vitest';
import { setUpTestApp, TEST_ENGINE } from '../testing/test-app.ts';

// The embedded engine has no autovacuum: the app vacuums the tables that churn itself. PostgreSQL's own autovacuum
// does it there (this file runs on the embedded engine only: scripts/test.mjs).
const t = setUpTestApp({ vacuumEveryMs: 50 });

const sizeOf = async (table: string) => {
  const [row] = await t.app.db.query<{ bytes: string }>(
    `select pg_total_relation_size($1::regclass)::text as bytes`,
    [table],
  );
  return Number(row?.bytes);
};

/** Rows in and out of the rate-limit table, as a burst of requests leaves them, once the window is pruned. */
async function churn(rows: number): Promise<void> {
  await t.app.db.query(
    `insert into rate_limit_hits (key, hits, window_ends)
     select 'churn:' || g, 1, now() from generate_series(1, $1::int) g`,
    [rows],
  );
  await t.app.db.query(`delete from rate_limit_hits where key like 'churn:%'`);
}

const vacuums = async () => {
  const [row] = await t.app.db.query<{ n: string }>(
    `select vacuum_count::text as n from pg_stat_user_tables where relname = 'rate_limit_hits'`,
  );
  return Number(row?.n ?? 0);
};

async function nextVacuum(): Promise<void> {
  const before = await vacuums();
  for (let tries = 0; tries < 200 && (await vacuums()) === before; tries++)
    await new Promise((resolve) => setTimeout(resolve, 25));
}

describe.skipIf(TEST_ENGINE !== 'pglite')(`the embedded engine's upkeep (${TEST_ENGINE})`, () => {
  it('keeps a churning table from growing: the space of deleted rows is used again', async () => {
    await churn(20_000);
    await nextVacuum();
    const afterOne = await sizeOf('rate_limit_hits');
    for (let round = 0; round < 5; round++) {
      await churn(20_000);
      await nextVacuum();
    }
    // Without a vacuum each round's dead rows stay: six rounds took 3.5 times the space of one (1.3 with it; what is
    // left is the index, whose emptied pages are used again only a vacuum later).
    expect(await sizeOf('rate_limit_hits')).toBeLessThan(afterOne * 2);
  });
});
