// A store for @fastify/rate-limit that counts in the database, so a limit holds across every app process on one
// PostgreSQL (issue 14, docs/scaling.md). Used with DATABASE_URL; the embedded engine keeps the plugin's in-memory
// store (one process per data directory).
import type { Queryable } from '../db/database.ts';
import { sign } from './crypto.ts';

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
  const count = createHitCounter(db);
  const store: RateLimitStore = {
    incr(key, callback, timeWindow) {
      count(keyOf(key), timeWindow, callback);
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

type Waiting = { timeWindow: number; callbacks: Callback[] };

/**
 * Counts hits in groups, as submissions are written (docs/decisions/013-group-commit.md): hits that arrive while a
 * statement is running wait and go together in the next one, one row per key, so a busy key (every request from one
 * address) costs one round trip and one row update per group instead of one each, and the process never queues
 * behind its own lock on that row. Each hit still gets its own count, as if counted one by one: a group of n hits
 * on a key is added at once, and its i-th hit is told `hits - n + i`.
 */
function createHitCounter(db: Queryable): (key: string, timeWindow: number, callback: Callback) => void {
  let queue = new Map<string, Waiting>();
  let busy = false;

  async function flush(): Promise<void> {
    const group = queue;
    queue = new Map();
    // In key order, so two processes' groups never wait on each other's rows in a circle.
    const keys = [...group.keys()].sort();
    const waiting = keys.map((key) => group.get(key) as Waiting);
    try {
      // The count commits without waiting for its WAL to reach the disk (synchronous_commit off for this
      // statement's transaction alone): every request waits for its hit to be counted, and a count lost to a
      // crash of the database server only lets a few more requests through once. Submissions stay durable.
      const rows = await db.query<{ key: string; hits: number; ttl_ms: number }>(
        `with unsynced as (select set_config('synchronous_commit', 'off', true))
         insert into rate_limit_hits as r (key, hits, window_ends)
         select k.key, k.n, now() + make_interval(secs => k.ms / 1000)
           from unnest($1::text[], $2::int[], $3::double precision[]) as k(key, n, ms), unsynced
         on conflict (key) do update set
           hits = case when r.window_ends <= now() then excluded.hits else r.hits + excluded.hits end,
           window_ends = case when r.window_ends <= now() then excluded.window_ends else r.window_ends end
         returning key, hits, ceil(extract(epoch from (window_ends - now())) * 1000)::int as ttl_ms`,
        [keys, waiting.map((w) => w.callbacks.length), waiting.map((w) => w.timeWindow)],
        { prepare: 'count_rate_limit_hits' },
      );
      const byKey = new Map(rows.map((r) => [r.key, r]));
      waiting.forEach((w, k) => {
        const row = byKey.get(keys[k] ?? '');
        const n = w.callbacks.length;
        w.callbacks.forEach((callback, i) =>
          callback(null, {
            current: (row?.hits ?? n) - n + i + 1,
            ttl: Math.max(0, row?.ttl_ms ?? w.timeWindow),
          }),
        );
      });
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const w of waiting) for (const callback of w.callbacks) callback(failure);
    }
  }

  function next(): void {
    if (busy || queue.size === 0) return;
    busy = true;
    // After this turn of the event loop, so that every request read in it joins the group.
    setImmediate(() => {
      void flush().finally(() => {
        busy = false;
        next();
      });
    });
  }

  return (key, timeWindow, callback) => {
    const waiting = queue.get(key);
    if (waiting) waiting.callbacks.push(callback);
    else queue.set(key, { timeWindow, callbacks: [callback] });
    next();
  };
}

/** Deletes counters whose window ended: the hourly sweep. */
export async function pruneRateLimits(db: Queryable): Promise<number> {
  const rows = await db.query('delete from rate_limit_hits where window_ends < now() returning 1');
  return rows.length;
}
