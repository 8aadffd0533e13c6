// What the submissions feature needs from the rest of the server. The forms and uploads features lend it these small
// interfaces in app.ts (where features meet), so submissions never imports their files.
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { Form } from '#common/forms.ts';
import type { FileView } from '#common/submissions.ts';
import type { Database, Queryable } from '../../db/database.ts';

/** What submissions read of forms. */
export type FormLookup = {
  /** Any form by id, for the public side: the link names only the form. */
  find: (formId: string) => Promise<Form | null>;
  /** The forms that exist among these ids, each with its version (it goes up with every change to the form). */
  findVersioned: (formIds: readonly string[]) => Promise<{ form: Form; version: number }[]>;
  /** Questions deleted after the form had responses, oldest deletion first: their answers are still stored. */
  retiredFields: (formId: string) => Promise<{ id: string; name: string }[]>;
};

/** An uploaded file as a submission answering with it sees it. */
export type ClaimableUpload = {
  id: string;
  /**
   * The form it was uploaded for; null for an anonymous upload (no form id, no token) or an owner's profile
   * document.
   */
  formId: string | null;
  /** The owner who uploaded it as a profile document; null for a customer's upload. */
  ownerId: string | null;
  submissionId: string | null;
  secretHash: string;
  /** The type and size of the file as kept, held to its question's own rules. */
  mimeType: string;
  size: number;
};

/** What submissions do with uploaded files. */
export type FileClaims = {
  /** The uploads whose delete ids have these digests. */
  findBySecret: (db: Queryable, secretHashes: readonly string[]) => Promise<ClaimableUpload[]>;
  /** Makes the uploads this submission's, in its transaction; returns how many were still free to claim. */
  claim: (tx: Queryable, submissionId: string, uploadIds: readonly string[]) => Promise<number>;
  /** The owner's view of each of these uploads that exists, with freshly signed URLs, by upload id. */
  view: (uploadIds: readonly string[]) => Promise<Map<string, FileView>>;
  /** Each upload's name and an absolute URL signed for `ttlSeconds`, as a webhook's payload links it (the CSV's). */
  links: (uploadIds: string[], ttlSeconds: number) => Promise<Map<string, { name: string; url: string }>>;
  /** Deletes the uploads of these submissions in the caller's transaction; returns their files' storage keys. */
  release: (tx: Queryable, submissionIds: readonly string[]) => Promise<string[]>;
  /** Removes a released file from storage, after the commit (a crash first leaves it to the orphan sweep). */
  removeFile: (storageKey: string) => Promise<void>;
};

export type SubmissionDeps = {
  db: Database;
  timeZone: string;
  log: FastifyBaseLogger;
  forms: FormLookup;
  files: FileClaims;
  /** Counts one open of a form's public page: GET /api/publicForm answered with the form (Results' views). */
  formOpened: (formId: string) => void;
  /** Called after each batch that stored submissions has committed; must return at once (it nudges the notifier). */
  onStored?: () => void;
  /** Wraps each customer's wait for the writer, so background work can tell when customers wait (load-gauge.ts). */
  trackWait?: <T>(work: Promise<T>) => Promise<T>;
};

/**
 * How a form posted without JavaScript stores its files (docs/decisions/024): the uploads feature's own checks
 * (name, type by content, size, per-address bounds, image re-encoding) and storage, lent in app.ts.
 */
export type FileIntake = {
  /** Streams one file part into storage as an anonymous upload for the form; its claim secret, name and URL. */
  receive: (
    part: MultipartFile,
    clientIp: string,
    formId: string,
  ) => Promise<{ deleteId: string; name: string; url: string }>;
  /** Removes an upload no submission claimed; one a submission claimed stays. */
  discard: (deleteId: string) => Promise<void>;
};
