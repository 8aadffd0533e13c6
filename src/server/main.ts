import { DatabaseInUseError, openDatabase } from './db/database.ts';
import { SchemaTooNewError } from './db/migrate.ts';
import { isClusterWorker, runPrimary } from './runtime/cluster.ts';
import { ConfigError, loadConfig, StartupError, type Config } from './runtime/config.ts';
import { logProcessWarnings, processLog } from './runtime/process-log.ts';
import { whereDataLives } from './runtime/where-data-lives.ts';

const FILE_PROBLEMS: Record<string, string> = {
  ENOTDIR: 'is not a directory',
  EEXIST: 'is not a directory',
  EACCES: 'cannot be written by this user',
  EPERM: 'cannot be written by this user',
  EROFS: 'is on a read-only file system',
  ENOSPC: 'is on a full disk',
};

/** Emscripten's errno numbers (PGlite's file system) of the FILE_PROBLEMS. */
const EMBEDDED_ERRNO: Record<number, string> = { 2: 'EACCES', 63: 'EPERM', 51: 'ENOSPC', 69: 'EROFS' };

/**
 * A start-up failure an operator fixes in a setting, as one line naming it; null for anything else (a bug: its
 * stack is printed).
 */
function startupProblem(error: unknown, config: Config): string | null {
  if (
    error instanceof StartupError ||
    error instanceof DatabaseInUseError ||
    error instanceof SchemaTooNewError
  )
    return error.message;
  const { code, path, name, errno } = (error ?? {}) as {
    code?: unknown;
    path?: unknown;
    name?: unknown;
    errno?: unknown;
  };
  if (typeof code === 'string' && code in FILE_PROBLEMS && typeof path === 'string')
    return `DATA_DIR (${config.dataDir}) ${FILE_PROBLEMS[code]}: ${code} on ${path}`;
  // The embedded engine's file system (Emscripten's) throws its own ErrnoError, with its own numbers and no path.
  const embedded = name === 'ErrnoError' && typeof errno === 'number' ? EMBEDDED_ERRNO[errno] : undefined;
  if (embedded)
    return `DATA_DIR (${config.dataDir}) ${FILE_PROBLEMS[embedded]}: ${embedded} in the embedded database (pgdata)`;
  return null;
}

/** Why the server could not listen on HOST and PORT, as one line naming the setting. */
function listenProblem(error: unknown, config: Config): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE') return `PORT ${config.port} is already in use (on HOST ${config.host})`;
  if (code === 'EACCES')
    return `PORT ${config.port}: this user may not listen on it (ports below 1024 need privileges)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `HOST "${config.host}" cannot be resolved`;
  if (code === 'EADDRNOTAVAIL') return `HOST ${config.host} is not an address of this machine`;
  return null;
}

/**
 * Says the one line (JSON, as every line of the service) and exits 1; with the error's stack at LOG_LEVEL=debug or
 * trace.
 */
function stopStarting(message: string, error: unknown, config: Config): never {
  const verbose = config.logLevel === 'debug' || config.logLevel === 'trace';
  processLog(config.logLevel).fatal(verbose ? { err: error } : {}, message);
  process.exit(1);
}

/** From the drain's end to the exit, however the requests in flight are doing. */
const FINISH_LIMIT_MS = 9_500;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Before LOG_LEVEL is known (it may be the setting refused): at the default level.
      processLog('info').fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  // Every line of the service is JSON, the primary's and Node's own warnings too (docs/decisions/040).
  const log = processLog(config.logLevel);
  logProcessWarnings(log);
  if (config.workers > 1 && !isClusterWorker()) {
    const primary = log.child({ role: 'primary' });
    runPrimary(config.workers, config.shutdownDrainMs, (message) =>
      primary.info(`easy-form primary: ${message}`),
    );
    return;
  }
  // Until the server listens, a timer keeps the event loop busy. Without one, whenever the loop had nothing left to
  // wait on between two steps of the start (PGlite's, mostly), Node blocked until every background job of V8 had
  // finished (its platform drains them when the loop runs empty: WebAssembly compilation, here up to 0.4 s a time)
  // before going on (docs/decisions/031).
  const starting = setInterval(() => undefined, 1_000);
  // The embedded database opens (PGlite loads and starts PostgreSQL, much of it waiting on files and the
  // WebAssembly compiler) while the app's modules load: a restart serves sooner (docs/decisions/031). Said before
  // the app's logger exists, a wait for the lock goes to the process's log.
  const database = config.databaseUrl
    ? undefined
    : openDatabase({
        ...config,
        onLockWait: (message) => log.warn(message),
        // Without its database a server can only fail every request: its supervisor starts a new one.
        onEngineLost: (error) => {
          log.fatal(`Stopping: ${error.message}`);
          process.exit(1);
        },
      });
  database?.catch(() => undefined); // handled where it is awaited, in buildApp; not unhandled meanwhile
  let app;
  try {
    const { buildApp } = await import('./app.ts');
    app = await buildApp(config, database);
  } catch (error) {
    const problem = startupProblem(error, config);
    if (problem) stopStarting(problem, error, config);
    throw error;
  }
  let shuttingDown = false;
  let stopBackups: (() => Promise<void>) | null = null;
  const shutdown = async (signal: NodeJS.Signals) => {
    // A second signal (Ctrl-C reaches a cluster worker from the terminal and from its primary) changes nothing.
    if (shuttingDown) return;
    shuttingDown = true;
    const started = Date.now();
    // What the shutdown is waiting for, should it not finish in time: requests until the HTTP server has closed
    // (its last connection ended), then the background work and the database (app.ts's onClose).
    let requestsDone = false;
    app.server.once('close', () => {
      requestsDone = true;
    });
    // A supervisor's SIGTERM: go on serving while the load balancer sees readiness at 503 and moves away. Ctrl-C:
    // stop now.
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    // Whatever happens below, the process is gone within 10 s of the drain's end: a supervisor waits no longer
    // than the drain and that (docs/operations.md: TimeoutStopSec).
    setTimeout(() => {
      app.server.getConnections((_err, open) => {
        app.log.error(
          requestsDone
            ? 'shutdown did not finish within 10 s of the drain: no request was open, but the background work or the database did not stop; exiting'
            : `shutdown did not finish within 10 s of the drain; exiting with ${open} connection(s) still open`,
        );
        process.exit(1);
      });
    }, drainMs + FINISH_LIMIT_MS).unref();
    app.beginDrain();
    app.log.info({ signal, drainMs }, 'shutting down: readiness (/api/health) answers 503');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
    // Stops listening and closes the keep-alive connections that carried nothing during the drain (each answer in
    // it closed its own), lets the requests in flight (submissions, uploads) finish, then the background work and
    // the database: every submission answered 200 was committed before its answer.
    await stopBackups?.();
    await app.close();
    app.log.info({ ms: Date.now() - started }, 'shut down');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.port, host: config.host }).finally(() => clearInterval(starting));
  } catch (error) {
    const problem = listenProblem(error, config);
    if (!problem) throw error;
    // No app.close(): its first sweep may still be running against the database. An exit leaves a lock whose holder
    // is provably gone, which the next start takes over at once (docs/decisions/028).
    stopStarting(problem, error, config);
  }
  // The embedded database is this process's alone: `npm run backup` asks it for the backup (backup-socket.ts).
  if (app.db.kind === 'pglite') {
    // Loaded once serving (the archive code is not needed to start).
    const { backupResponder, listenForBackups } = await import('./features/backup/backup-socket.ts');
    stopBackups = await listenForBackups(config.dataDir, backupResponder(app), (err) =>
      app.log.error({ err }, 'a backup failed'),
    );
    if (!stopBackups)
      app.log.warn('DATA_DIR is too long a path for the backup socket: stop the server to back up');
  }
  // One line naming the database and the file store (never a password or a key): a server started on the wrong
  // ones shows at once.
  app.log.info(
    { url: config.publicUrl, ...whereDataLives(config) },
    `Easy Form is running at ${config.publicUrl} (database: ${app.db.kind})`,
  );
  if (process.env.TRUST_PROXY?.trim().toLowerCase() === 'true') {
    app.log.warn(
      "TRUST_PROXY=true is read as TRUST_PROXY=1: only the nearest proxy's X-Forwarded-For entry is believed (docs/operations.md: TRUST_PROXY)",
    );
  }
  if (config.webhookAllowPrivate) {
    app.log.warn(
      'WEBHOOK_ALLOW_PRIVATE=true: webhooks may reach loopback, private and link-local addresses (docs/decisions/023-webhooks.md)',
    );
  }
}

main().catch((error: unknown) => {
  processLog('info').fatal({ err: error }, 'Easy Form could not start');
  process.exit(1);
});
