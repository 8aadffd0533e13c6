import type { Queryable } from './database.ts';

/** Finished rows (sent mail, processed notifications, finished webhook deliveries) are kept this long. */
export const KEEP_FINISHED_MS = 30 * 24 * 60 * 60_000;
/** Rows one statement deletes, so a large backlog never holds a long lock or a huge transaction. */
const PRUNE_BATCH = 1000;

/**
 * Deletes the rows of `table` matching `where` (a constant predicate of the caller's, parameters `$1…`), a batch
 * at a time until none is left; how many. The predicate should be served by an index (migration 013).
 */
export async function deleteInBatches(
  db: Queryable,
  table: string,
  where: string,
  params: unknown[],
): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await db.query(
      `delete from ${table} where id in (select id from ${table} where ${where} limit ${PRUNE_BATCH}) returning id`,
      params,
    );
    total += rows.length;
    if (rows.length < PRUNE_BATCH) return total;
  }
}
