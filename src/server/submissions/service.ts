import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { formatSpecDate, type Form } from '#common/forms.ts';
import type { FileView, Submission, SubmissionBody } from '#common/submissions.ts';
import { digest } from '../accounts/secrets.ts';
import type { Database } from '../db/database.ts';
import { HttpError, notFound } from '../errors.ts';
import {
  claimUploads,
  findUploadsByIds,
  findUploadsBySecret,
  type UploadRecord,
} from '../uploads/repository.ts';
import { FILE_URL_SECONDS } from '../uploads/service.ts';
import type { Storage } from '../uploads/storage.ts';
import { contactOf, fileAnswersOf, readAnswers, toStoredAnswers } from './answers.ts';
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

export async function submit(
  deps: SubmissionDeps,
  input: {
    ownerId: string;
    body: SubmissionBody & { formStructureId: string };
    idempotencyKey: string | null;
    isBot: boolean;
  },
): Promise<string> {
  const form = await deps.findForm(input.body.formStructureId);
  if (!form) throw formNotFound();
  if (input.isBot) {
    // Answer like a success so the bot learns nothing; store nothing (docs/decisions/009-submission-ingest.md).
    deps.log.info({ formId: form._id }, 'honeypot filled; submission dropped');
    return randomUUID();
  }
  if (form.ownerIdAsStructureId !== input.ownerId) {
    throw new HttpError(
      400,
      'VALIDATION_FAILED',
      'ownerId: This link does not match the form; ask the owner for a new link',
    );
  }
  if (input.idempotencyKey) {
    const earlier = await repo.findSubmissionByIdempotencyKey(deps.db, form._id, input.idempotencyKey);
    if (earlier) return earlier;
  }
  const answers = readAnswers(form, input.body);
  const files = fileAnswersOf(form, answers);
  const uploads = await findUploadsBySecret(
    deps.db,
    files.map((f) => digest(f.answer.deleteId)),
  );
  const bySecret = new Map(uploads.map((u) => [u.secretHash, u]));
  for (const { field, answer } of files) {
    const upload = bySecret.get(digest(answer.deleteId));
    if (!upload || upload.formId !== form._id || upload.submissionId !== null) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `${field.name}: This file was not uploaded for this form; upload it again`,
      );
    }
  }
  if (new Set(uploads.map((u) => u.id)).size !== files.length) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'fileObject: Each file can answer one question');
  }
  const stored = toStoredAnswers(form, answers, (deleteId) => bySecret.get(digest(deleteId))?.id ?? '');
  // The answer is sent only after this transaction commits: an acknowledged submission is durable.
  return deps.db.transaction(async (tx) => {
    const { id, isNew } = await repo.insertSubmission(tx, {
      formId: form._id,
      ownerId: form.ownerIdAsStructureId,
      formTitle: form.formTitle,
      description: form.description,
      color: form.color,
      border: form.border,
      answers: stored,
      contact: contactOf(form, stored),
      idempotencyKey: input.idempotencyKey,
    });
    if (
      isNew &&
      uploads.length > 0 &&
      (await claimUploads(
        tx,
        id,
        uploads.map((u) => u.id),
      )) !== uploads.length
    ) {
      throw new HttpError(
        409,
        'VALIDATION_FAILED',
        'fileObject: A file was used by another submission; upload it again',
      );
    }
    return id;
  });
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
