import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { closedLookOf } from '#common/closed-form.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import { toPublicForm } from '#common/forms.ts';
import { startBackgroundWork } from './app-background.ts';
import { signedFileLinksOf } from './app-sources.ts';
import { openStores } from './app-stores.ts';
import type { Database } from './db/database.ts';
import { accountRoutes } from './features/accounts/routes.ts';
import { retiredFieldsOf } from './features/forms/field-repository.ts';
import { cachedFormFinder } from './features/forms/form-cache.ts';
import { findFormOfOwner, findVersionedForms, formStatusOf } from './features/forms/repository.ts';
import { formRoutes } from './features/forms/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { profileRoutes } from './features/profile/routes.ts';
import { resultsRoutes } from './features/results/routes.ts';
import type { SubmissionDeps } from './features/submissions/deps.ts';
import { publicSubmissionRoutes } from './features/submissions/ingest/routes.ts';
import { ownerSubmissionRoutes } from './features/submissions/responses/routes.ts';
import { createImageReencoder } from './features/uploads/image.ts';
import { createFileIntake } from './features/uploads/intake.ts';
import {
  claimUploads,
  deleteUploadById,
  deleteUploadsOfSubmissions,
  findUploadsBySecret,
  storageKeysOfForm,
} from './features/uploads/repository.ts';
import { uploadRoutes } from './features/uploads/routes.ts';
import { claimProfileDocument, viewUploads } from './features/uploads/service.ts';
import { webhookRoutes } from './features/webhooks/routes.ts';
import { createServer, registerRateLimits } from './http/server.ts';
import { registerSiteText } from './pages/site-text.ts';
import { registerWebApp } from './pages/web-app.ts';
import type { Config } from './runtime/config.ts';
import { registerHealth } from './runtime/health.ts';
import { registerMetrics } from './runtime/metrics.ts';
import './http/fastify-types.ts';

/**
 * Builds the whole app from a config, without listening: main.ts listens, tests inject. `database`: the embedded
 * database main.ts began to open while this module loaded (a restart serves sooner, docs/decisions/031).
 */
export async function buildApp(config: Config, database?: Promise<Database>): Promise<FastifyInstance> {
  const app = createServer(config);
  const stores = await openStores(app, config, database);
  const { db, storage } = stores;
  const images = await createImageReencoder(join(config.dataDir, 'staging'), config.uploadMaxPixels);
  const background = startBackgroundWork(app, config, stores, images);
  const { views, notifier, sender, load, notificationSources, webhookDeps, resume } = background;

  await registerRateLimits(app, db);

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
  const findForm = cachedFormFinder(db, timeZone);
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
      links: (uploadIds, ttl) => signedFileLinksOf(storage, config.publicUrl)(db, uploadIds, ttl),
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

  registerSiteText(app, config.siteTextFiles ?? {});
  await registerWebApp(app, config.webDir, {
    findCustomerForm: async (formId, ownerId) => {
      const form = await findForm(formId);
      if (!form || form.ownerIdAsStructureId !== ownerId) return null;
      const closed = closedReasonOf(form, new Date(), form.responseCount);
      return closed
        ? { closedMessage: closedMessageOf(form.settings, closed, timeZone), look: closedLookOf(form) }
        : { form: toPublicForm(form) };
    },
    formOpened: views.opened,
  });
  resume();
  return app;
}
