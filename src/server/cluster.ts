// WORKERS=N: N server processes on one machine sharing the port (node:cluster), on PostgreSQL only (config.ts
// refuses it on the embedded engine). The primary serves nothing itself: it starts the workers, starts again one
// that dies, and passes a stop signal on to all of them. docs/scaling.md.
import cluster, { type Worker } from 'node:cluster';

/** A worker that dies this soon after it started is failing to start (bad database, port taken): give up. */
const START_GRACE_MS = 10_000;
/** The workers' own shutdown is bounded at 10 s (main.ts); the primary waits a little longer for them. */
const STOP_LIMIT_MS = 11_000;

export const isClusterWorker = () => cluster.isWorker;

export function runPrimary(workers: number, log: (message: string) => void): void {
  let stopping = false;
  let exitCode = 0;
  const startedAt = new Map<Worker, number>();
  const start = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? 0);
    startedAt.delete(worker);
    if (stopping) {
      if (startedAt.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (lived < START_GRACE_MS && !worker.exitedAfterDisconnect) {
      log(`worker ${worker.process.pid} exited (${how}) ${lived} ms after it started: stopping the others`);
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
    for (const worker of startedAt.keys()) worker.process.kill(signal);
    if (startedAt.size === 0) process.exit(exitCode);
    setTimeout(() => {
      log('workers did not stop in time');
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
  };
  // Ctrl-C reaches the workers from the terminal too; each stops once, however many signals it gets.
  process.on('SIGTERM', () => stopAll('SIGTERM'));
  process.on('SIGINT', () => stopAll('SIGINT'));

  log(`starting ${workers} server processes`);
  for (let i = 0; i < workers; i++) start();
}
