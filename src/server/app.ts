import { maxHeaderSize } from 'node:http';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import { toPublicForm } from '#common/forms.ts';
import { notificationSourcesOf, pruneFinished, webhookSourcesOf } from './app-sources.ts';
import { openDatabase, QUERY_TIMEOUT_MS, type Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { runAlone } from './db/run-alone.ts';
import { getOrCreateSetting } from './db/settings.ts';
import { accountRoutes } from './features/accounts/routes.ts';
import { holdRemovalsDuringBackups } from './features/backup/removal-hold.ts';
import { retiredFieldsOf } from './features/forms/field-repository.ts';
import {
  findFormById,
  findFormOfOwner,
  findVersionedForms,
  formStatusOf,
} from './features/forms/repository.ts';
import { formRoutes } from './features/forms/routes.ts';
import { createNotifier, NOTIFY_POLL_MS, NOTIFY_WINDOW_MS } from './features/notifications/notifier.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { profileRoutes } from './features/profile/routes.ts';
import { resultsRoutes } from './features/results/routes.ts';
import { createViewCounter } from './features/results/views.ts';
import type { SubmissionDeps } from './features/submissions/deps.ts';
import { publicSubmissionRoutes } from './features/submissions/ingest/routes.ts';
import { ownerSubmissionRoutes } from './features/submissions/responses/routes.ts';
import { createImageReencoder } from './features/uploads/image.ts';
import { createFileIntake } from './features/uploads/intake.ts';
import { ORPHAN_FILE_GRACE_MS, sweepOrphanFiles } from './features/uploads/orphan-sweep.ts';
import {
  claimUploads,
  deleteUploadById,
  deleteUploadsOfSubmissions,
  findUploadsBySecret,
  storageKeysOfForm,
} from './features/uploads/repository.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { claimProfileDocument, deleteStaleUploads, viewUploads } from './features/uploads/service.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import {
  createSender,
  WEBHOOK_BACKOFF_MS,
  WEBHOOK_POLL_MS,
  WEBHOOK_TIMEOUT_MS,
} from './features/webhooks/sender.ts';
import { enforceBodyRate } from './http/body-rate.ts';
import { trustProxyOf } from './http/client-address.ts';
import { newKey } from './http/crypto.ts';
import { answerClientError, refuseUnstorableText, registerErrorHandler } from './http/errors.ts';
import { guardJsonBodies } from './http/json-guard.ts';
import { createLoadGauge } from './http/load-gauge.ts';
import { databaseRateLimitStore, pruneRateLimits } from './http/rate-limit-store.ts';
import { REQUEST_ID_HEADER, requestIds } from './http/request-id.ts';
import { requestForLog } from './http/request-log.ts';
import { recordRoutes } from './http/route-table.ts';
import { securityHeaders } from './http/security-headers.ts';
import { logJobFailure } from './http/unavailable.ts';
import { createMailer } from './mail/mailer.ts';
import { registerWebApp, unreadableAddressHandler } from './pages/web-app.ts';
import type { Config } from './runtime/config.ts';
import { registerHealth } from './runtime/health.ts';
import { registerMetrics } from './runtime/metrics.ts';
import { startWait, waitFor } from './runtime/start-wait.ts';
import { openStorage } from './storage/open-storage.ts';
import './http/fastify-types.ts';

const JSON_BODY_LIMIT = 64 * 1024;
const SWEEP_MS = 60 * 60 * 1000;
/** Any constant shared by every Easy Form process: the hourly sweep's advisory lock (migrate.ts has its own). */
const SWEEP_LOCK_KEY = 7_243_002;

/**
 * Builds the whole app from a config, without listening: main.ts listens, tests inject. `database`: the embedded
 * database main.ts began to open while this module loaded (a restart serves sooner, docs/decisions/031).
 */
export async function buildApp(config: Config, database?: Promise<Database>): Promise<FastifyInstance> {
  const setSecurityHeaders = securityHeaders(config.publicUrl);
  const app = Fastify({
    // Ids unique across workers, restarts and machines, or the caller's X-Request-Id (request-id.ts).
    genReqId: requestIds(),
    logger: {
      level: config.logLevel,
      ...(config.logStream ? { stream: config.logStream } : {}),
      serializers: { req: requestForLog },
    },
    // An address the router cannot read (a malformed escape, a segment past maxParamLength below): web-app.ts.
    frameworkErrors: unreadableAddressHandler(config.webDir, setSecurityHeaders),
    // Route params are ids (uuids, 43-character upload keys). One longer than find-my-way's default 100 used to miss
    // its route: the answer was the router's (a "No route" 404, the page fallback for a GET), or a guess in the
    // not-found handler, which cannot know the route meant. Raised, it reaches its route, whose own schema answers as
    // for any other bad id (400 `fid: Not a valid form id`; for a customer link, its page's 404). A limit stays: no
    // param outgrows the request line, which Node refuses past maxHeaderSize (16 KiB: answerClientError's 431), and
    // no route declares a regex param, whose backtracking the default bounds. Past it (only inject() can send one),
    // frameworkErrors above answers.
    routerOptions: { maxParamLength: maxHeaderSize },
    // A request that is not valid HTTP (a broken chunk, headers too large): our error body and headers too.
    clientErrorHandler: answerClientError,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxyOf(config.trustProxy),
    // No total time limit: a slow but steady upload may take as long as it needs; enforceBodyRate cuts a stalled or
    // trickling one (issue 10). Node's headersTimeout (60 s) still bounds a client that never finishes its headers.
    requestTimeout: 0,
    // A request still arriving when the server stops listening is answered, not refused (docs/decisions/039).
    return503OnClosing: false,
  });
  enforceBodyRate(app, {
    minBytesPerSecond: config.bodyMinBytesPerSecond,
    windowMs: config.bodyRateWindowMs,
  });
  guardJsonBodies(app);

  // Before any route, so the table is complete: the access matrix and fuzz tests read it (route-table.ts).
  recordRoutes(app);
  registerErrorHandler(app);
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(request, reply);
    // The id the log lines of this request carry, for a caller or a proxy to quote.
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  // The API speaks JSON (and multipart for uploads); a text body is a client mistake answered with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  // One rule for every route: text PostgreSQL cannot store is refused before any schema or handler sees it.
  app.addHook('preValidation', refuseUnstorableText);
  app.setSerializerCompiler(serializerCompiler);

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
  const images = await createImageReencoder(join(config.dataDir, 'staging'), config.uploadMaxPixels);
  const uploadDeps = { db, storage, log: app.log };
  // One process sweeps at a time (the others skip that hour's turn); the staging folder is each process's own.
  const sweep = () =>
    runAlone(db, SWEEP_LOCK_KEY, async () => {
      await deleteStaleUploads(uploadDeps)
        .then(() => sweepOrphanFiles(uploadDeps))
        .catch((err: unknown) => logJobFailure(app.log, err, 'upload sweep failed'));
      await pruneRateLimits(db)
        .then(() => pruneFinished(db))
        .catch((err: unknown) => logJobFailure(app.log, err, 'pruning finished rows failed'));
    })
      .then(() => images.sweep(ORPHAN_FILE_GRACE_MS))
      .catch((err: unknown) => logJobFailure(app.log, err, 'sweep failed'));
  const sweeper = setInterval(sweep, SWEEP_MS);
  sweeper.unref();
  app.addHook('onReady', async () => void sweep());
  // Opens of public forms, counted in memory and written every few seconds and on close (results/views.ts).
  const views = createViewCounter({ db, timeZone: config.formTimezone, log: app.log });
  const notificationSources = notificationSourcesOf(config.formTimezone);
  const notifier = createNotifier({
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
  // Whether customers keep this process busy: the webhook sender trickles meanwhile (load-gauge.ts).
  const load = createLoadGauge();
  const sender = createSender({
    ...webhookDeps,
    isBusy: load.busy,
    db,
    log: app.log,
    pollMs: config.webhookPollMs ?? WEBHOOK_POLL_MS,
    backoffMs: config.webhookBackoffMs ?? WEBHOOK_BACKOFF_MS,
  });
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await sender.close();
    load.close();
    await notifier.close();
    await views.close().catch((err: unknown) => app.log.warn({ err }, 'form views could not be written'));
    await mailer.close();
    await db.close();
  });

  // Limits are applied per route (accounts/routes.ts), per address and per email. On PostgreSQL they are counted in
  // the database, so they hold across every process (docs/scaling.md); the embedded engine has one process.
  await app.register(rateLimit, {
    global: false,
    ...(db.kind === 'postgres'
      ? { store: databaseRateLimitStore(db, await getOrCreateSetting(db, 'rate_limit_key', newKey)) }
      : {}),
  });

  // Before the routes, so its hooks see every one of them.
  await registerMetrics(app, {
    db,
    token: config.metricsToken,
    counted: {
      submissions: ['POST /api/forms/:ownerId', 'POST /customer/:fid/:ownerId'],
      uploads: ['POST /api/profile'],
    },
  });

  // Liveness, readiness and the drain a shutdown begins with (main.ts).
  registerHealth(app, { db, storage, dataDir: config.dataDir, uploadMaxBytes: config.uploadMaxBytes });
  await app.register(accountRoutes, { prefix: '/api/v1' });
  // Features meet here, not by importing each other (docs/architecture.md): each is handed the small interfaces it
  // needs of the others. Forms lend submissions, uploads and the customer page their form lookups; uploads lend
  // forms the files to remove with a deleted form, submissions the files they claim, the profile its documents.
  const timeZone = config.formTimezone;
  const findForm = (formId: string) => findFormById(db, formId, timeZone);
  const removeFile = (key: string) => storage.remove(key);
  await app.register(formRoutes, {
    prefix: '/api',
    files: { keysOfForm: storageKeysOfForm, remove: removeFile },
  });
  await app.register(uploadRoutes, {
    formStatus: (formId) => formStatusOf(db, formId, config.formTimezone),
    images,
  });
  const submissionDeps: SubmissionDeps = {
    db,
    timeZone,
    log: app.log,
    forms: {
      find: findForm,
      findVersioned: (formIds) => findVersionedForms(db, formIds, timeZone),
      retiredFields: (formId) => retiredFieldsOf(db, formId),
    },
    files: {
      findBySecret: findUploadsBySecret,
      claim: claimUploads,
      view: (uploadIds) => viewUploads({ db, storage }, uploadIds),
      release: deleteUploadsOfSubmissions,
      removeFile,
    },
    formOpened: views.opened,
    onStored: () => {
      notifier.nudge();
      sender.nudge();
    },
    trackWait: load.track,
  };
  const intake = await createFileIntake(app, images);
  await app.register(async (scope) => publicSubmissionRoutes(scope, submissionDeps, intake));
  await app.register(async (scope) => ownerSubmissionRoutes(scope, submissionDeps));
  // Results read the owner's form from forms and the views counted on the public side.
  await app.register(async (scope) =>
    resultsRoutes(scope, {
      db,
      timeZone,
      findFormOfOwner: (ownerId, formId) => findFormOfOwner(db, ownerId, formId, timeZone),
      flushViews: views.flush,
    }),
  );
  await app.register(notificationRoutes, { sources: notificationSources });
  await app.register(async (scope) => webhookRoutes(scope, { ...webhookDeps, nudgeSender: sender.nudge }));
  await app.register(async (scope) =>
    profileRoutes(scope, {
      claim: claimProfileDocument,
      release: deleteUploadById,
      removeFile,
      view: async (uploadId) => {
        const file = (await viewUploads({ db, storage }, [uploadId])).get(uploadId);
        return file ? { url: file.url, originalName: file.originalName, mimeType: file.mimeType } : null;
      },
    }),
  );

  await registerWebApp(app, config.webDir, {
    findCustomerForm: async (formId, ownerId) => {
      const form = await findForm(formId);
      if (!form || form.ownerIdAsStructureId !== ownerId) return null;
      const closed = closedReasonOf(form, new Date(), form.responseCount);
      return closed
        ? { closedMessage: closedMessageOf(form.settings, closed, timeZone) }
        : { form: toPublicForm(form) };
    },
    formOpened: views.opened,
  });
  // Mail left in the outbox by a previous run goes out now.
  void mailer.flush();
  // Responses recorded but not yet notified when a previous run stopped are notified now.
  notifier.nudge();
  // Deliveries due when a previous run stopped (or whose lease ran out with it) are sent now.
  sender.nudge();
  return app;
}
