// The embedded engine's upkeep: what autovacuum does for a PostgreSQL server. PGlite runs PostgreSQL in one process
// without background workers, so nothing ever vacuums or analyzes it: the tables that churn (queues, counters,
// sessions, rate limits) grew on disk without bound and their statements slowed (a queue's claim 4–7× slower over
// 150,000 dead rows than after a vacuum). docs/decisions/041-embedded-upkeep.md.
import type { Database } from './queryable.ts';

/**
 * The tables whose rows are updated or deleted as the app runs. Submissions, forms and accounts change rarely (an
 * owner's deletion or edit), and a page's dead rows are pruned when a statement next reads it.
 */
export const CHURNING_TABLES = [
  'webhook_batches',
  'response_events',
  'webhook_deliveries',
  'webhook_attempts',
  'mail_outbox',
  'rate_limit_hits',
  'sessions',
  'form_quarter_counts',
  'form_field_counts',
  'form_option_counts',
  'form_skip_counts',
  'notification_windows',
  'uploads',
  'app_settings',
  'email_verifications',
  'password_reset_codes',
  'trusted_devices',
] as const;

/** A vacuum of the churning tables this often: small each time, as only what changed since the last is read. */
export const VACUUM_EVERY_MS = 60_000;
/** The planner's statistics refreshed this often (a sample of each table, so its cost does not grow with it). */
export const ANALYZE_EVERY_MS = 60 * 60_000;

/** One vacuum of the churning tables: the space of their dead rows is reused rather than the files growing. */
export const vacuumChurningTables = (db: Database): Promise<void> =>
  db.exec(`vacuum ${CHURNING_TABLES.join(', ')}`);

/**
 * Starts the upkeep on the embedded engine (nothing on PostgreSQL, whose autovacuum does it). Each run waits for
 * the one before; `onError` hears a failure, and the next run tries again.
 */
export function startEmbeddedUpkeep(
  db: Database,
  onError: (error: unknown) => void,
  every = { vacuumMs: VACUUM_EVERY_MS, analyzeMs: ANALYZE_EVERY_MS },
): { stop: () => Promise<void> } {
  if (db.kind !== 'pglite') return { stop: async () => undefined };
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = (work: () => Promise<void>) => {
    if (stopped) return;
    running = running.then(work).catch(onError);
  };
  const vacuum = setInterval(() => run(() => vacuumChurningTables(db)), every.vacuumMs);
  const analyze = setInterval(() => run(() => db.exec('analyze')), every.analyzeMs);
  vacuum.unref();
  analyze.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(vacuum);
      clearInterval(analyze);
      await running;
    },
  };
}
