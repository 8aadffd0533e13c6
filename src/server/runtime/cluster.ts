// WORKERS=N: N server processes on one machine sharing the port (node:cluster), on PostgreSQL only (config.ts
// refuses it on the embedded engine). The primary serves nothing itself: it starts the workers, starts again one
// that dies, and passes a stop signal on to all of them. docs/scaling.md.
import cluster, { type Worker } from 'node:cluster';
import { serveMetricsToWorkers } from './cluster-metrics.ts';

/** The workers' own shutdown is bounded at 10 s after their drain (main.ts); the primary waits a little longer. */
const STOP_LIMIT_MS = 11_000;
/** More deaths of serving workers than this within RESTART_WINDOW_MS is a crash loop, not bad luck: give up. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;

export const isClusterWorker = () => cluster.isWorker;

/**
 * Starts one worker, and the others once it listens: a setting that stops every worker from starting (a database
 * refused, the port taken) is then said once, by the one. A worker that dies before it ever listened is such a
 * failure: the primary stops. One that dies while serving (killed, out of memory) is replaced, unless they keep
 * dying. On a stop signal each worker's exit is logged, and the primary exits 1 if any did not stop cleanly.
 */
export function runPrimary(workers: number, drainMs: number, log: (message: string) => void): void {
  let stopping = false;
  let exitCode = 0;
  const running = new Set<Worker>();
  const listened = new WeakSet<Worker>();
  const restarts: number[] = [];
  const start = () => running.add(cluster.fork());

  let othersStarted = false;
  cluster.on('listening', (worker) => {
    listened.add(worker);
    log(`worker ${worker.process.pid} serving`);
    if (othersStarted || stopping) return;
    othersStarted = true;
    for (let i = 1; i < workers; i++) start();
  });

  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      const clean = code === 0 && !signal;
      if (!clean) exitCode = 1;
      log(`worker ${worker.process.pid} ${clean ? 'stopped' : `exited (${how}) while stopping`}`);
      if (running.size === 0) process.exit(exitCode);
      return;
    }
    if (!listened.has(worker)) {
      log(`worker ${worker.process.pid} exited (${how}) before it could serve: stopping`);
      stopAll('SIGTERM', 1);
      return;
    }
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && (restarts[0] ?? 0) < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      log(
        `worker ${worker.process.pid} exited (${how}); ${restarts.length} workers died within a minute: stopping`,
      );
      stopAll('SIGTERM', 1);
      return;
    }
    log(`worker ${worker.process.pid} exited (${how}); starting another`);
    start();
  });

  const stopAll = (signal: NodeJS.Signals, code = 0) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const worker of running) worker.process.kill(signal);
    if (running.size === 0) process.exit(exitCode);
    setTimeout(() => {
      log('workers did not stop in time');
      process.exit(1);
    }, drainMs + STOP_LIMIT_MS).unref();
  };
  // Ctrl-C reaches the workers from the terminal too; each stops once, however many signals it gets.
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));

  serveMetricsToWorkers();
  log(`starting ${workers} server processes`);
  start();
}
