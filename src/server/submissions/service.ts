import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { formatSpecDate, type Form } from '#common/forms.ts';
import type { Answers, FileView, Submission, SubmissionBody } from '#common/submissions.ts';
import { digest } from '../accounts/secrets.ts';
import type { Database } from '../db/database.ts';
import { formClosed, HttpError, notFound } from '../errors.ts';
import { findFormsByIds } from '../forms/repository.ts';
import {
  claimUploads,
  findUploadsByIds,
  findUploadsBySecret,
  type UploadRecord,
} from '../uploads/repository.ts';
import { FILE_URL_SECONDS } from '../uploads/service.ts';
import type { Storage } from '../uploads/storage.ts';
import { contactOf, fileAnswersOf, readAnswers, toStoredAnswers } from './answers.ts';
import { createBatcher, type Outcome } from './group-commit.ts';
import * as repo from './repository.ts';

export type SubmissionDeps = {
  db: Database;
  storage: Storage;
  timeZone: string;
  log: FastifyBaseLogger;
  /** Any form by id; composed in app.ts from the forms feature. */
  findForm: (formId: string) => Promise<Form | null>;
};

const formNotFound = () => notFound('This form does not exist or was deleted');

export type SubmitInput = {
  ownerId: string;
  body: SubmissionBody & { formStructureId: string };
  idempotencyKey: string | null;
  isBot: boolean;
};

/** The most submissions written in one transaction. */
const MAX_BATCH = 64;
/** Batches written at once on PostgreSQL: one fills while another commits. */
const WRITERS = 2;

/**
 * Takes submissions and answers each with its id once it is committed. Submissions that arrive while a batch is
 * being written go together in the next transaction (docs/decisions/013-group-commit.md).
 */
export function createSubmitter(deps: SubmissionDeps): (input: SubmitInput) => Promise<string> {
  const batcher = createBatcher<SubmitInput, string>((inputs) => writeBatch(deps, inputs), {
    maxBatch: MAX_BATCH,
    // PGlite runs on this thread, one query at a time: a second writer would only wait for the first.
    writers: deps.db.kind === 'pglite' ? 1 : WRITERS,
  });
  return (input) => batcher.add(input);
}

const failed = (error: unknown): Outcome<string> => ({ ok: false, error });
const done = (value: string): Outcome<string> => ({ ok: true, value });

/**
 * Writes the batch together. If it fails as a whole (a file claimed by a concurrent submission, a database error),
 * nothing of it is kept and each submission is written again on its own, so one bad submission never fails the
 * others and each gets its own answer.
 */
async function writeBatch(deps: SubmissionDeps, inputs: SubmitInput[]): Promise<Outcome<string>[]> {
  try {
    return await writeTogether(deps, inputs);
  } catch (error) {
    if (inputs.length === 1) return [failed(error)];
    deps.log.warn(
      { err: error, size: inputs.length },
      'batch of submissions failed as a whole; writing one by one',
    );
    const outcomes: Outcome<string>[] = [];
    for (const input of inputs) outcomes.push(...(await writeBatch(deps, [input])));
    return outcomes;
  }
}

type Accepted = { index: number; row: repo.NewSubmission; uploadIds: string[] };
/** A submission with an idempotency key that was not inserted: if its key is stored, it is a retry. */
type Unwritten = { index: number; formId: string; key: string; outcome: Outcome<string> };

/**
 * Validates every submission against its form as it is now and stores the valid ones with one statement, which
 * also counts them on their forms; only a batch that claims uploads needs a transaction around its statements.
 * A submission's own mistake (unknown form, invalid answer) is its outcome, not the batch's failure.
 *
 * Idempotency needs no lookup before the insert: the unique (form, key) index skips a row whose key is stored,
 * and only submissions that were not inserted (a retry, or one refused now) are looked up, to answer the first
 * id: a retry gets it even if the form has changed or closed since.
 */
async function writeTogether(deps: SubmissionDeps, inputs: SubmitInput[]): Promise<Outcome<string>[]> {
  const outcomes: (Outcome<string> | undefined)[] = new Array<Outcome<string> | undefined>(inputs.length);
  const formIds = [...new Set(inputs.map((i) => i.body.formStructureId))];
  const forms = new Map((await findFormsByIds(deps.db, formIds, deps.timeZone)).map((f) => [f._id, f]));

  /** The first submission of this batch with a key, which later ones with the same key follow. */
  const leaders = new Map<string, number>();
  const followers: { index: number; leader: number }[] = [];
  const unwritten: Unwritten[] = [];
  const refuse = (index: number, error: unknown, key: { formId: string; key: string } | null) => {
    outcomes[index] = failed(error);
    if (key) unwritten.push({ index, ...key, outcome: failed(error) });
  };

  const valid: {
    index: number;
    form: Form;
    answers: Answers;
    files: ReturnType<typeof fileAnswersOf>;
    key: { formId: string; key: string } | null;
  }[] = [];
  inputs.forEach((input, index) => {
    const form = forms.get(input.body.formStructureId);
    if (!form) return refuse(index, formNotFound(), null);
    if (input.isBot) {
      // Answer like a success so the bot learns nothing; store nothing (docs/decisions/009-submission-ingest.md).
      deps.log.info({ formId: form._id }, 'honeypot filled; submission dropped');
      outcomes[index] = done(randomUUID());
      return;
    }
    if (form.ownerIdAsStructureId !== input.ownerId) {
      return refuse(
        index,
        new HttpError(
          400,
          'VALIDATION_FAILED',
          'ownerId: This link does not match the form; ask the owner for a new link',
        ),
        null,
      );
    }
    const key = input.idempotencyKey ? { formId: form._id, key: input.idempotencyKey } : null;
    if (key) {
      const keyId = repo.idempotencyIdOf(key.formId, key.key);
      const leader = leaders.get(keyId);
      if (leader !== undefined) {
        followers.push({ index, leader });
        return;
      }
      leaders.set(keyId, index);
    }
    try {
      if (!form.acceptingResponses) throw formClosed();
      const answers = readAnswers(form, input.body);
      valid.push({ index, form, answers, files: fileAnswersOf(form, answers), key });
    } catch (error) {
      refuse(index, error, key);
    }
  });

  const secrets = valid.flatMap((v) => v.files.map((f) => digest(f.answer.deleteId)));
  const uploads = secrets.length > 0 ? await findUploadsBySecret(deps.db, secrets) : [];
  const bySecret = new Map(uploads.map((u) => [u.secretHash, u]));
  const accepted: Accepted[] = [];
  for (const { index, form, answers, files, key } of valid) {
    try {
      accepted.push({ index, ...acceptedRow(form, answers, files, bySecret, inputs[index]) });
    } catch (error) {
      refuse(index, error, key);
    }
  }

  const rows = accepted.map((a) => a.row);
  const inserted = accepted.some((a) => a.uploadIds.length > 0)
    ? await deps.db.transaction(async (tx) => {
        const ids = await repo.insertSubmissions(tx, rows);
        for (const a of accepted) {
          if (!ids.has(a.row.id) || a.uploadIds.length === 0) continue;
          if ((await claimUploads(tx, a.row.id, a.uploadIds)) !== a.uploadIds.length) {
            throw new HttpError(
              409,
              'VALIDATION_FAILED',
              'fileObject: A file was used by another submission; upload it again',
            );
          }
        }
        return ids;
      })
    : await repo.insertSubmissions(deps.db, rows);

  for (const a of accepted) {
    if (inserted.has(a.row.id)) outcomes[a.index] = done(a.row.id);
    else
      unwritten.push({
        index: a.index,
        formId: a.row.formId,
        key: a.row.idempotencyKey ?? '',
        outcome: failed(new Error('idempotent insert found neither a new nor an old row')),
      });
  }
  // Skipped on insert, or refused now: a key already stored means a retry, which answers the first id.
  const stored = await repo.findByIdempotencyKeys(deps.db, unwritten);
  for (const u of unwritten) {
    const id = stored.get(repo.idempotencyIdOf(u.formId, u.key));
    outcomes[u.index] = id ? done(id) : u.outcome;
  }
  for (const { index, leader } of followers) outcomes[index] = outcomes[leader];
  return outcomes.map((o) => o ?? failed(new Error('submission left without an answer')));
}

/** The row to store for a valid submission, once its files are checked to be uploads made for this form. */
function acceptedRow(
  form: Form,
  answers: Answers,
  files: ReturnType<typeof fileAnswersOf>,
  bySecret: Map<string, UploadRecord & { secretHash: string }>,
  input: SubmitInput | undefined,
): { row: repo.NewSubmission; uploadIds: string[] } {
  const used = new Set<string>();
  for (const { field, answer } of files) {
    const upload = bySecret.get(digest(answer.deleteId));
    if (!upload || upload.formId !== form._id || upload.submissionId !== null) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `${field.name}: This file was not uploaded for this form; upload it again`,
      );
    }
    used.add(upload.id);
  }
  if (used.size !== files.length) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'fileObject: Each file can answer one question');
  }
  const stored = toStoredAnswers(form, answers, (deleteId) => bySecret.get(digest(deleteId))?.id ?? '');
  return {
    row: {
      id: randomUUID(),
      formId: form._id,
      ownerId: form.ownerIdAsStructureId,
      formTitle: form.formTitle,
      description: form.description,
      color: form.color,
      border: form.border,
      answers: stored,
      contact: contactOf(form, stored),
      idempotencyKey: input?.idempotencyKey ?? null,
    },
    uploadIds: [...used],
  };
}

function fileView(storage: Storage, upload: UploadRecord): FileView {
  const url = storage.signUrl(upload.id, FILE_URL_SECONDS);
  return {
    url,
    downloadUrl: `${url}&download=1`,
    originalName: upload.originalName,
    mimeType: upload.mimeType,
    size: upload.size,
  };
}

/** The owner's view of one submission, with freshly signed file URLs. */
export async function toSubmission(deps: SubmissionDeps, record: repo.SubmissionRecord): Promise<Submission> {
  const uploadIds = record.answers.flatMap((a) =>
    typeof a.value === 'object' && !Array.isArray(a.value) ? [a.value.uploadId] : [],
  );
  const uploads = new Map((await findUploadsByIds(deps.db, uploadIds)).map((u) => [u.id, u]));
  const submission: Submission = {
    _id: record.id,
    formTitle: record.formTitle,
    formStructureId: record.formId,
    Date: formatSpecDate(record.createdAt, deps.timeZone),
    createdAt: record.createdAt.toISOString(),
    color: record.color,
    border: record.border,
    description: record.description,
    textObject: {},
    selectedValues: {},
    selectedRadio: {},
    selectedCheckboxes: [],
    fileObject: {},
    answers: [],
    contact: record.contact,
  };
  for (const a of record.answers) {
    if (typeof a.value === 'object' && !Array.isArray(a.value)) {
      const upload = uploads.get(a.value.uploadId);
      const file = upload ? fileView(deps.storage, upload) : null;
      submission.answers.push({ fieldId: a.fieldId, kind: a.kind, name: a.name, value: null, file });
      if (file && upload) {
        submission.fileObject[a.name] = {
          name: a.name,
          value: file.url,
          deleteId: upload.id,
          originalName: upload.originalName,
        };
      }
      continue;
    }
    submission.answers.push({ fieldId: a.fieldId, kind: a.kind, name: a.name, value: a.value, file: null });
    if (a.kind === 'text' && typeof a.value === 'string') submission.textObject[a.name] = a.value;
    if (a.kind === 'select' && typeof a.value === 'string') submission.selectedValues[a.name] = a.value;
    if (a.kind === 'radio' && typeof a.value === 'string') submission.selectedRadio[a.name] = a.value;
    if (a.kind === 'check' && Array.isArray(a.value))
      submission.selectedCheckboxes.push({ name: a.name, values: a.value });
  }
  return submission;
}

export async function findSubmission(deps: SubmissionDeps, ownerId: string, id: string): Promise<Submission> {
  const record = await repo.findSubmissionOfOwner(deps.db, ownerId, id);
  if (!record) throw notFound('Submission not found');
  return toSubmission(deps, record);
}
