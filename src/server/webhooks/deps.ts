// What the webhooks feature needs from the rest of the server. app.ts builds it from the forms, submissions and
// uploads features and the storage (docs/architecture.md), so this feature imports none of their files.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';

/** One answer as a webhook sends it: the question, the answer as stored, and each file as a signed URL. */
export type AnswerForWebhook = {
  fieldId: string;
  question: string;
  kind: string;
  value: string | string[] | null;
  file: { name: string; url: string } | null;
};

export type SubmissionForWebhook = {
  form: { id: string; title: string };
  submission: { id: string; createdAt: string };
  answers: AnswerForWebhook[];
};

/** Reads the submission as its payload shows it, or null when it is gone; file URLs signed for `urlTtlSeconds`. */
export type WebhookSources = {
  findSubmission: (
    db: Queryable,
    submissionId: string,
    urlTtlSeconds: number,
  ) => Promise<SubmissionForWebhook | null>;
};

export type SenderDeps = {
  db: Database;
  log: FastifyBaseLogger;
  sources: WebhookSources;
  /** Loopback, private and link-local receivers are refused unless this is set (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  pollMs: number;
  /** The first retry's delay; each next one doubles, up to an hour. Tests make it short. */
  backoffMs: number;
  timeoutMs: number;
};
