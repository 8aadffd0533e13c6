// What the notifications feature needs from the rest of the server. app.ts builds these from the forms, submissions
// and accounts features (docs/architecture.md), so this feature imports none of their files.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../../db/database.ts';
import type { Mailer } from '../../mail/mailer.ts';

/** One stored answer as a mail shows it: files by name, choices joined. */
export type AnswerForMail = { fieldId: string; question: string; text: string };

export type SubmissionForMail = { id: string; formId: string; createdAt: Date; answers: AnswerForMail[] };

export type FormForMail = {
  title: string;
  ownerEmail: string;
  /** The form's email questions, in order: the first one answered is where a respondent copy goes. */
  emailQuestionIds: string[];
};

/** How the notifier reads forms and submissions, inside its own transaction. */
export type NotificationSources = {
  findForm: (db: Queryable, formId: string) => Promise<FormForMail | null>;
  findSubmissions: (db: Queryable, ids: readonly string[]) => Promise<SubmissionForMail[]>;
};

export type NotifierDeps = {
  db: Database;
  mailer: Mailer;
  log: FastifyBaseLogger;
  sources: NotificationSources;
  publicUrl: string;
  timeZone: string;
  /** The owner gets at most one mail per form per window; what arrives inside it is folded into one digest. */
  windowMs: number;
  /** Whether customers keep the process busy: the nudge after a batch then waits longer, so passes serve more. */
  isBusy: () => boolean;
  /** How often pending notifications are looked for besides the nudge after each committed batch. */
  pollMs: number;
};
