// How background work reads what other features own: built here, beside app.ts, where features meet
// (docs/architecture.md), and by the tests that run a second notifier or a pruning pass over the same database.
import type { Queryable } from './db/database.ts';
import { KEEP_FINISHED_MS } from './db/prune.ts';
import { findAccountEmail } from './features/accounts/repository.ts';
import { findFormById } from './features/forms/repository.ts';
import type { NotificationSources } from './features/notifications/deps.ts';
import { deleteProcessedEvents } from './features/notifications/repository.ts';
import { findSubmissionsAsText } from './features/submissions/responses/for-mail.ts';
import { findSubmissionsAsPayload } from './features/submissions/responses/for-webhook.ts';
import { findUploadsByIds } from './features/uploads/repository.ts';
import { deleteFinishedDeliveries } from './features/webhooks/delivery-queue.ts';
import type { WebhookSources } from './features/webhooks/deps.ts';
import { exampleSubmissionOf } from './features/webhooks/example-submission.ts';
import { deleteSentMail } from './mail/mailer.ts';
import type { Storage } from './storage/storage.ts';

/** Uploads' original names, read in the caller's transaction (PGlite has one connection: no query may go around it). */
const fileNamesOf = async (db: Queryable, ids: string[]) =>
  new Map((await findUploadsByIds(db, ids)).map((u) => [u.id, u.originalName]));

/**
 * How the notifier reads forms, accounts and submissions (docs/decisions/021-response-notifications.md): built here,
 * where features meet, and by the tests that run a second notifier over the same database.
 */
export function notificationSourcesOf(timeZone: string): NotificationSources {
  return {
    async findForm(db: Queryable, formId: string) {
      const form = await findFormById(db, formId, timeZone);
      const ownerEmail = form ? await findAccountEmail(db, form.ownerIdAsStructureId) : null;
      if (!form || !ownerEmail) return null;
      const emailQuestionIds = form.textField.filter((f) => f.type === 'email').map((f) => f._id);
      return { title: form.formTitle, ownerEmail, emailQuestionIds };
    },
    findSubmissions: (db, ids) => findSubmissionsAsText(db, ids, fileNamesOf),
  };
}

/**
 * Uploads by name and a URL signed for `ttl` seconds, made absolute with PUBLIC_URL: the file links a webhook's
 * payload and the CSV export carry, read in the caller's transaction.
 */
export const signedFileLinksOf =
  (storage: Pick<Storage, 'signUrl'>, publicUrl: string) =>
  async (db: Queryable, ids: string[], ttl: number) =>
    new Map(
      (await findUploadsByIds(db, ids)).map((u) => [
        u.id,
        { name: u.originalName, url: `${publicUrl}${storage.signUrl(u.id, ttl)}` },
      ]),
    );

/**
 * How the webhook sender reads submissions (docs/decisions/023-webhooks.md): answers by question, files by name and
 * a URL signed for `ttl` seconds, made absolute with PUBLIC_URL; and Send test the form's questions.
 */
export function webhookSourcesOf(storage: Storage, publicUrl: string, timeZone: string): WebhookSources {
  const fileLinks = signedFileLinksOf(storage, publicUrl);
  return {
    exampleSubmission: async (db, formId) => {
      const form = await findFormById(db, formId, timeZone);
      return form && exampleSubmissionOf(form);
    },
    findSubmissions: (db, submissionIds, ttl) =>
      findSubmissionsAsPayload(db, submissionIds, (tx, ids) => fileLinks(tx, ids, ttl)),
  };
}

/**
 * Sent mail, processed notification events and finished webhook deliveries, after KEEP_FINISHED_MS (db/prune.ts) by
 * the database's clock, the one that dated them.
 */
export async function pruneFinished(db: Queryable): Promise<void> {
  await deleteSentMail(db, KEEP_FINISHED_MS);
  await deleteProcessedEvents(db, KEEP_FINISHED_MS);
  await deleteFinishedDeliveries(db, KEEP_FINISHED_MS);
}
