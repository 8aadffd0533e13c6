// The app's background work and its lifecycle: the hourly sweep, the count of form views, the notifier that mails
// owners about new responses and the sender that delivers webhooks. Each starts with the app and stops on close, in
// this order, before the stores they use. Composition: the work reads several features (docs/architecture.md).
import type { FastifyInstance } from 'fastify';
import { notificationSourcesOf, pruneFinished, webhookSourcesOf } from './app-sources.ts';
import type { Stores } from './app-stores.ts';
import { ANALYZE_EVERY_MS, startEmbeddedUpkeep, VACUUM_EVERY_MS } from './db/embedded-upkeep.ts';
import { createNotifier, NOTIFY_POLL_MS, NOTIFY_WINDOW_MS } from './features/notifications/notifier.ts';
import { createViewCounter } from './features/results/views.ts';
import { pruneDrafts } from './features/submissions/no-script/drafts.ts';
import type { ImageReencoder } from './features/uploads/image.ts';
import { ORPHAN_FILE_GRACE_MS, sweepOrphanFiles } from './features/uploads/orphan-sweep.ts';
import { deleteStaleUploads } from './features/uploads/service.ts';
import {
  createSender,
  WEBHOOK_BACKOFF_MS,
  WEBHOOK_POLL_MS,
  WEBHOOK_TIMEOUT_MS,
} from './features/webhooks/sender.ts';
import { createLoadGauge } from './http/load-gauge.ts';
import { pruneRateLimits } from './http/rate-limit-store.ts';
import { logJobFailure } from './http/unavailable.ts';
import type { Config } from './runtime/config.ts';
import { startHourlySweep } from './runtime/hourly-sweep.ts';

/** Starts the background work; `resume` sends what a previous run left, once the routes are registered. */
export function startBackgroundWork(
  app: FastifyInstance,
  config: Config,
  { db, mailer, storage }: Stores,
  images: ImageReencoder,
) {
  const uploadDeps = { db, storage, log: app.log };
  // One process sweeps at a time (the others skip that hour's turn); the staging folder is each process's own.
  const sweeper = startHourlySweep(app, db, {
    alone: async () => {
      await deleteStaleUploads(uploadDeps)
        .then(() => sweepOrphanFiles(uploadDeps))
        .catch((err: unknown) => logJobFailure(app.log, err, 'upload sweep failed'));
      await pruneRateLimits(db)
        .then(() => pruneFinished(db))
        .then(() => pruneDrafts(db))
        .catch((err: unknown) => logJobFailure(app.log, err, 'pruning finished rows failed'));
    },
    each: () => images.sweep(ORPHAN_FILE_GRACE_MS),
  });
  // What autovacuum does on PostgreSQL, on the embedded engine (nothing on PostgreSQL).
  const upkeep = startEmbeddedUpkeep(
    db,
    (err) => logJobFailure(app.log, err, 'the embedded database upkeep failed; will retry'),
    { vacuumMs: config.vacuumEveryMs ?? VACUUM_EVERY_MS, analyzeMs: ANALYZE_EVERY_MS },
  );
  // Opens of public forms, counted in memory and written every few seconds and on close (results/views.ts).
  const views = createViewCounter({ db, log: app.log });
  const notificationSources = notificationSourcesOf(config.formTimezone);
  // Whether customers keep this process busy: the notifier and the webhook sender then hold back (load-gauge.ts).
  const load = createLoadGauge();
  const notifier = createNotifier({
    isBusy: load.busy,
    db,
    mailer,
    log: app.log,
    sources: notificationSources,
    publicUrl: config.publicUrl,
    timeZone: config.formTimezone,
    windowMs: config.notifyWindowMs ?? NOTIFY_WINDOW_MS,
    pollMs: config.notifyPollMs ?? NOTIFY_POLL_MS,
  });
  const webhookDeps = {
    sources: webhookSourcesOf(storage, config.publicUrl, config.formTimezone),
    allowPrivate: config.webhookAllowPrivate,
    timeoutMs: WEBHOOK_TIMEOUT_MS,
  };
  const sender = createSender({
    ...webhookDeps,
    isBusy: load.busy,
    db,
    log: app.log,
    pollMs: config.webhookPollMs ?? WEBHOOK_POLL_MS,
    backoffMs: config.webhookBackoffMs ?? WEBHOOK_BACKOFF_MS,
  });
  app.addHook('onClose', async () => {
    sweeper.stop();
    await sender.close();
    load.close();
    await notifier.close();
    await views.close().catch((err: unknown) => app.log.warn({ err }, 'form views could not be written'));
    await upkeep.stop();
    await mailer.close();
    await db.close();
  });
  const resume = () => {
    // Mail left in the outbox by a previous run goes out now.
    void mailer.flush();
    // Responses recorded but not yet notified when a previous run stopped are notified now.
    notifier.nudge();
    // Deliveries due when a previous run stopped (or whose lease ran out with it) are sent now.
    sender.nudge();
  };
  return { views, notifier, sender, load, notificationSources, webhookDeps, resume };
}
