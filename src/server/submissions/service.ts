import type { FastifyBaseLogger } from 'fastify';
import { formatSpecDate, type Form } from '#common/forms.ts';
import type { FileView, Submission } from '#common/submissions.ts';
import type { Database } from '../db/database.ts';
import { notFound } from '../errors.ts';
import { findUploadsByIds, type UploadRecord } from '../uploads/repository.ts';
import { FILE_URL_SECONDS } from '../uploads/service.ts';
import type { Storage } from '../uploads/storage.ts';
import type * as repo from './repository.ts';
import { findSubmissionOfOwner } from './repository.ts';

export type SubmissionDeps = {
  db: Database;
  storage: Storage;
  timeZone: string;
  log: FastifyBaseLogger;
  /** Any form by id; composed in app.ts from the forms feature. */
  findForm: (formId: string) => Promise<Form | null>;
};

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
  const record = await findSubmissionOfOwner(deps.db, ownerId, id);
  if (!record) throw notFound('Submission not found');
  return toSubmission(deps, record);
}
