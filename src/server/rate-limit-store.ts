// A store for @fastify/rate-limit that counts in the database, so a limit holds across every app process on one
// PostgreSQL (issue 14, docs/scaling.md). Used with DATABASE_URL; the embedded engine keeps the plugin's in-memory
// store (one process per data directory).
import { sign } from './crypto.ts';
import type { Queryable } from './db/database.ts';

type Hits = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Hits) => void;

export type RateLimitStore = {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: unknown): RateLimitStore;
};

/**
 * Fixed windows, as the plugin's own store counts: the first hit opens a window of `timeWindow` ms. `keySecret` keys
 * the digests the keys are stored as.
 */
export function databaseRateLimitStore(db: Queryable, keySecret: string): new () => RateLimitStore {
  // Keys carry addresses and emails: the table holds only their keyed digests.
  const keyOf = (key: string) => sign(keySecret, key);
  const store: RateLimitStore = {
    incr(key, callback, timeWindow) {
      db.query<{ hits: number; ttl_ms: number }>(
        `insert into rate_limit_hits as r (key, hits, window_ends)
           values ($1, 1, now() + make_interval(secs => $2::double precision / 1000))
         on conflict (key) do update set
           hits = case when r.window_ends <= now() then 1 else r.hits + 1 end,
           window_ends = case when r.window_ends <= now() then excluded.window_ends else r.window_ends end
         returning hits, ceil(extract(epoch from (window_ends - now())) * 1000)::int as ttl_ms`,
        [keyOf(key), timeWindow],
      ).then(
        ([row]) => callback(null, { current: row?.hits ?? 1, ttl: Math.max(0, row?.ttl_ms ?? timeWindow) }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    read(key, callback) {
      db.query<{ hits: number; ttl_ms: number }>(
        `select hits, ceil(extract(epoch from (window_ends - now())) * 1000)::int as ttl_ms
           from rate_limit_hits where key = $1 and window_ends > now()`,
        [keyOf(key)],
      ).then(
        ([row]) => callback(null, row ? { current: row.hits, ttl: row.ttl_ms } : { current: 0, ttl: 0 }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    child: () => store,
  };
  // The plugin makes its store with `new`; every route shares the one table, told apart by its keys.
  return function DatabaseStore() {
    return store;
  } as unknown as new () => RateLimitStore;
}

/** Deletes counters whose window ended: the hourly sweep. */
export async function pruneRateLimits(db: Queryable): Promise<number> {
  const rows = await db.query('delete from rate_limit_hits where window_ends < now() returning 1');
  return rows.length;
}
