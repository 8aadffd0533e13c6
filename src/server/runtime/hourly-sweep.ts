// The hourly sweep: once an hour, and once when the app is ready. `alone` is the work one process does at a time
// across every Easy Form process (the others skip that hour's turn); `each` is every process's own (its staging
// folder). What is swept is the composition's to say (app-background.ts).
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { runAlone } from '../db/run-alone.ts';
import { logJobFailure } from '../http/unavailable.ts';

const SWEEP_MS = 60 * 60 * 1000;
/** Any constant shared by every Easy Form process: the hourly sweep's advisory lock (migrate.ts has its own). */
const SWEEP_LOCK_KEY = 7_243_002;

export function startHourlySweep(
  app: FastifyInstance,
  db: Database,
  work: { alone: () => Promise<void>; each: () => Promise<unknown> },
): { stop: () => void } {
  const sweep = () =>
    runAlone(db, SWEEP_LOCK_KEY, work.alone)
      .then(work.each)
      .catch((err: unknown) => logJobFailure(app.log, err, 'sweep failed'));
  const sweeper = setInterval(sweep, SWEEP_MS);
  sweeper.unref();
  app.addHook('onReady', async () => void sweep());
  return { stop: () => clearInterval(sweeper) };
}
