// The stores the app keeps its state in, opened before any route: the database (migrated), the mail outbox and
// the file storage, which a backup in progress holds removals back from. Composition: the backup feature lends the
// hold, as features meet only here, beside app.ts (docs/architecture.md).
import type { FastifyInstance } from 'fastify';
import { openDatabase, QUERY_TIMEOUT_MS, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { getOrCreateSetting } from './db/settings.ts';
import { holdRemovalsDuringBackups } from './features/backup/removal-hold.ts';
import { newKey } from './http/crypto.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import type { Config } from './runtime/config.ts';
import { startWait, waitFor } from './runtime/start-wait.ts';
import { openStorage } from './storage/open-storage.ts';
import type { Storage } from './storage/storage.ts';
import './http/fastify-types.ts';

export type Stores = { db: Database; mailer: Mailer; storage: Storage };

/** Opens the stores (waiting for those not reachable yet) and hangs them on the app for the routes. */
export async function openStores(
  app: FastifyInstance,
  config: Config,
  database: Promise<Database> | undefined,
): Promise<Stores> {
  // PostgreSQL or S3 not reachable yet (a boot, their restart): the start waits for them.
  const wait = startWait(config.startupWaitMs, app.log);
  const db = await (database ??
    waitFor(
      'database',
      () =>
        openDatabase({
          ...config,
          databaseQueryTimeoutMs: config.databaseQueryTimeoutMs ?? QUERY_TIMEOUT_MS,
          // One line: pg hangs the whole client (its buffers, its statements) on the error; the stack says nothing.
          onConnectionError: (err) =>
            app.log.warn(`a database connection closed (${err.message}); the pool reconnects`),
          onLockWait: (message) => app.log.warn(message),
        }),
      wait,
    ));
  const applied = await migrate(db, { timeZone: config.formTimezone });
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  const signingKey = await getOrCreateSetting(db, 'file_url_key', newKey);
  // A backup in progress holds file removals back (docs/decisions/029-backup-and-restore.md).
  const opened = await waitFor(
    'file storage',
    () => openStorage({ ...config, log: app.log }, signingKey),
    wait,
  );
  const storage = holdRemovalsDuringBackups(db, opened);
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('mailer', mailer);
  app.decorate('storage', storage);
  app.decorateRequest('owner', null);
  return { db, mailer, storage };
}
