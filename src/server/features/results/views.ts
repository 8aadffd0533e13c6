// Opens of the public form, counted in memory and added to the form's quarter-hour row every few seconds: one upsert per
// flush instead of one per open (docs/decisions/020-results.md). Nothing about the visitor is kept: no cookie, no
// address, only a number per form.
import type { FastifyBaseLogger } from 'fastify';
import type { Queryable } from '../../db/database.ts';

export type ViewCounter = {
  /** One open of this form's public page or of GET /api/publicForm for it. */
  opened: (formId: string) => void;
  /** Writes the opens counted so far; the Results view calls it first, so it never lags behind. */
  flush: () => Promise<void>;
  /** Stops the timer and writes what is left. */
  close: () => Promise<void>;
};

/** How often counted opens are written. Opens counted since are lost only if the process dies. */
export const VIEW_FLUSH_MS = 5_000;

export function createViewCounter(deps: {
  db: Queryable;
  log: FastifyBaseLogger;
  flushMs?: number;
}): ViewCounter {
  let pending = new Map<string, number>();
  const flush = async () => {
    if (pending.size === 0) return;
    const batch = pending;
    pending = new Map();
    try {
      // Joined with forms: a form deleted since its opens were counted is skipped, not a foreign-key error.
      await deps.db.query(
        `insert into form_quarter_counts as c (form_id, quarter, views)
         select f.id, quarter_of(now()), v.n
           from unnest($1::uuid[], $2::int[]) as v(id, n) join forms f on f.id = v.id
         on conflict (form_id, quarter) do update set views = c.views + excluded.views`,
        [[...batch.keys()], [...batch.values()]],
      );
    } catch (error) {
      for (const [id, n] of batch) pending.set(id, (pending.get(id) ?? 0) + n);
      throw error;
    }
  };
  const timer = setInterval(
    () => void flush().catch((err: unknown) => deps.log.warn({ err }, 'form views could not be written')),
    deps.flushMs ?? VIEW_FLUSH_MS,
  );
  timer.unref();
  return {
    opened: (formId) => pending.set(formId, (pending.get(formId) ?? 0) + 1),
    flush,
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
