import { randomUUID } from 'node:crypto';
import type { Form } from '#common/forms.ts';
import { fileRuleProblem } from '#common/kinds/file-rules.ts';
import { digest } from '../../../http/crypto.ts';
import { HttpError } from '../../../http/errors.ts';
import type { ClaimableUpload } from '../deps.ts';
import type { NewSubmission } from '../insert-submissions.ts';
import type * as repo from '../repository.ts';
import { AnswersError, contactOf, type fileAnswersOf, type Judged, toStoredAnswers } from './answers.ts';

/** The row to store for a valid submission, once its files are checked to be uploads made for this form. */
export function acceptedRow(
  form: Form,
  formVersion: number | null,
  { answers, path, skipped, keptAside, hidden }: Judged,
  files: ReturnType<typeof fileAnswersOf>,
  bySecret: Map<string, ClaimableUpload>,
  idempotencyKey: string | null | undefined,
): { row: NewSubmission; uploadIds: string[] } {
  const used = new Set<string>();
  for (const { field, answer } of files) {
    const upload = bySecret.get(digest(answer.deleteId));
    // An anonymous upload (no form id, no token) may answer any form; one made for a form answers only
    // that form, and an owner's profile document none.
    const isForThisForm = upload?.formId === form._id || (upload?.formId === null && upload.ownerId === null);
    if (!upload || !isForThisForm || upload.submissionId !== null) {
      throw new HttpError(
        400,
        'VALIDATION_FAILED',
        `${field.name}: This file was not uploaded for this form; upload it again`,
      );
    }
    // The question's own types and size limit, whichever page or client sent the file.
    const problem = fileRuleProblem(field.rules, upload.mimeType, upload.size);
    if (problem) throw new AnswersError(`${field.name}: ${problem}`, { [field._id]: problem });
    used.add(upload.id);
  }
  if (used.size !== files.length) {
    throw new HttpError(400, 'VALIDATION_FAILED', 'fileObject: Each file can answer one question');
  }
  const stored = toStoredAnswers(form, answers, (deleteId) => bySecret.get(digest(deleteId))?.id ?? '');
  return {
    row: {
      id: randomUUID(),
      formVersion,
      ...formColumns(form, stored),
      path,
      skipped: skipped.length > 0 ? skipped : null,
      keptAside: keptAside.length > 0 ? keptAside : null,
      hidden,
      idempotencyKey: idempotencyKey ?? null,
    },
    uploadIds: [...used],
  };
}

/** The columns of a submission's row that come from its form and its stored answers (the bench's raw insert too). */
export const formColumns = (form: Form, answers: repo.StoredAnswer[]) => ({
  formId: form._id,
  ownerId: form.ownerIdAsStructureId,
  formTitle: form.formTitle,
  description: form.description,
  color: form.color,
  border: form.border,
  answers,
  contact: contactOf(form, answers),
});
