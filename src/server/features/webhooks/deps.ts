// What the webhooks feature needs from the rest of the server. app.ts builds it from the forms, submissions and
// uploads features and the storage (docs/architecture.md), so this feature imports none of their files.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database.ts';

/** One answer as a webhook sends it: the question, the answer as stored, and each file as a signed URL. */
export type AnswerForWebhook = {
  fieldId: string;
  question: string;
  kind: string;
  /** Text or a chosen option, the ticked options, a grid's chosen column by row; null for a file. */
  value: string | string[] | Readonly<Record<string, string>> | null;
  /** A file question's first file; null for any other answer. */
  file: { name: string; url: string } | null;
  /** A file question's files, in the order given; only on a file question's answer. */
  files?: { name: string; url: string }[];
};

export type SubmissionForWebhook = {
  form: { id: string; title: string };
  submission: { id: string; createdAt: string };
  answers: AnswerForWebhook[];
  /** The hidden fields the form's link filled, by name ({} when none). */
  hidden: Record<string, string>;
};

export type WebhookSources = {
  /**
   * Reads the submissions as their payloads show them, by id, in one query (one more for all their files); those
   * that are gone are left out. File URLs are signed for `urlTtlSeconds`.
   */
  findSubmissions: (
    db: Queryable,
    submissionIds: readonly string[],
    urlTtlSeconds: number,
  ) => Promise<Map<string, SubmissionForWebhook>>;
  /** Send test's payload: the form with an example answer per question (example-submission.ts); null when gone. */
  exampleSubmission: (db: Queryable, formId: string) => Promise<SubmissionForWebhook | null>;
};

/** What the owner routes need beyond the database: Send test's sources and limits, and the sender to nudge. */
export type WebhookRouteDeps = {
  sources: WebhookSources;
  allowPrivate: boolean;
  timeoutMs: number;
  nudgeSender: () => void;
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
  /** Whether customers keep the process busy now (load-gauge.ts): passes then come at most every 2 s. */
  isBusy: () => boolean;
};
