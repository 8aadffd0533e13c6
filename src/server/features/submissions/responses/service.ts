import { formatSpecDate, isMoreKind, type Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { notFound } from '../../../http/errors.ts';
import type { SubmissionDeps } from '../deps.ts';
import type * as repo from '../repository.ts';
import { findSubmissionOfOwner, lockFormCounts, uploadIdsOf } from '../repository.ts';
import {
  deleteSubmissionsOfOwner,
  formIdsOfSubmissions,
  lockSubmissionsOfOwner,
} from './delete-repository.ts';

/**
 * What the owner's view needs of the questions answered: which are days, each grid's rows in order, and each
 * rating's highest value.
 */
export type AnsweredQuestions = {
  dates: ReadonlySet<string>;
  gridRows: ReadonlyMap<string, readonly string[]>;
  ratingMax: ReadonlyMap<string, number>;
};

/** The date questions, the grids' rows and the ratings' scales of these forms (a field's id is unique across forms). */
export const answeredQuestionsOf = (forms: readonly Form[]): AnsweredQuestions => ({
  dates: new Set(forms.flatMap((f) => f.textField.filter((t) => t.type === 'date').map((t) => t._id))),
  gridRows: new Map(
    forms.flatMap((f) => f.moreField.flatMap((m) => (m.kind === 'grid' ? [[m._id, m.settings.rows]] : []))),
  ),
  ratingMax: new Map(
    forms.flatMap((f) => f.moreField.flatMap((m) => (m.kind === 'rating' ? [[m._id, m.settings.max]] : []))),
  ),
});

/** The questions of the forms these submissions answered, in one query. */
export async function questionsAnswered(
  deps: SubmissionDeps,
  records: readonly Pick<repo.SubmissionRecord, 'formId'>[],
): Promise<AnsweredQuestions> {
  const found = await deps.forms.findVersioned([...new Set(records.map((r) => r.formId))]);
  return answeredQuestionsOf(found.map((f) => f.form));
}

/** A grid's answer with its rows in the grid's order (the database keeps an object's keys in an order of its own). */
const inRowOrder = (value: Readonly<Record<string, string>>, rows: readonly string[] = []) => {
  const known = rows.filter((row) => row in value);
  return Object.fromEntries(
    [...known, ...Object.keys(value).filter((row) => !rows.includes(row))].map((r) => [r, value[r] ?? '']),
  );
};

/** The owner's view of one submission, with freshly signed file URLs; `questions` says which answers are days. */
export async function toSubmission(
  deps: SubmissionDeps,
  record: repo.SubmissionRecord,
  questions: AnsweredQuestions,
): Promise<Submission> {
  const uploadIds = record.answers.flatMap((a) => uploadIdsOf(a));
  const files = await deps.files.view(uploadIds);
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
    ...(record.keptAside?.length ? { keptAside: record.keptAside } : {}),
    ...(record.path ? { path: record.path } : {}),
    ...(record.hidden ? { hidden: record.hidden } : {}),
  };
  const about = (a: repo.StoredAnswer) => ({
    fieldId: a.fieldId,
    kind: a.kind,
    name: a.name,
    isDate: questions.dates.has(a.fieldId),
    ...(a.kind === 'rating' && questions.ratingMax.has(a.fieldId)
      ? { outOf: questions.ratingMax.get(a.fieldId) }
      : {}),
  });
  for (const a of record.answers) {
    if (a.kind === 'file') {
      const ids = uploadIdsOf(a).filter((id) => files.has(id));
      const given = ids.flatMap((id) => files.get(id) ?? []);
      submission.answers.push({ ...about(a), value: null, file: given[0] ?? null, files: given });
      // The product's map holds one file a question: the first.
      const [first] = given;
      if (first && ids[0]) {
        submission.fileObject[a.name] = {
          name: a.name,
          value: first.url,
          deleteId: ids[0],
          originalName: first.originalName,
        };
      }
      continue;
    }
    const value =
      a.kind === 'grid' && typeof a.value === 'object' && !Array.isArray(a.value)
        ? inRowOrder(a.value as Readonly<Record<string, string>>, questions.gridRows.get(a.fieldId))
        : a.value;
    submission.answers.push({
      ...about(a),
      value: value as Submission['answers'][number]['value'],
      file: null,
    });
    // The kinds beyond the product's five are sent as text, and read back the same way.
    if ((a.kind === 'text' || isMoreKind(a.kind)) && typeof a.value === 'string')
      submission.textObject[a.name] = a.value;
    if (a.kind === 'select' && typeof a.value === 'string') submission.selectedValues[a.name] = a.value;
    if (a.kind === 'radio' && typeof a.value === 'string') submission.selectedRadio[a.name] = a.value;
    if (a.kind === 'check' && Array.isArray(a.value))
      submission.selectedCheckboxes.push({ name: a.name, values: a.value });
    if (a.kind === 'grid' && value && typeof value === 'object' && !Array.isArray(value))
      (submission.gridObject ??= {})[a.name] = { ...(value as Readonly<Record<string, string>>) };
  }
  return submission;
}

export async function findSubmission(deps: SubmissionDeps, ownerId: string, id: string): Promise<Submission> {
  const record = await findSubmissionOfOwner(deps.db, ownerId, id);
  if (!record) throw notFound('Submission not found');
  return toSubmission(deps, record, await questionsAnswered(deps, [record]));
}

/**
 * Deletes those of `ids` that are the owner's, with their uploads, their share of the Results counters and of their
 * forms' counts, in one transaction; their files leave storage after the commit. A file whose removal fails (or a
 * crash before it) has no upload row left, so the orphan sweep removes it later. Returns how many were deleted.
 */
export async function deleteSubmissions(
  deps: SubmissionDeps,
  ownerId: string,
  ids: readonly string[],
  formId?: string,
): Promise<number> {
  const { deleted, keys } = await deps.db.transaction(async (tx) => {
    // Their forms' rows first, then the responses: the order deleting a form takes them (its row, then by cascade
    // its responses); the other way round, a response deleted while its form was deleted deadlocked and answered 500.
    // Before the delete statement takes its snapshot too: an insert in flight then either committed first (the
    // newest-response time below sees it) or waits for this commit and sets its own.
    await lockFormCounts(tx, formId ? [formId] : await formIdsOfSubmissions(tx, ownerId, ids));
    const owned = await lockSubmissionsOfOwner(tx, { ownerId, formId }, [...new Set(ids)]);
    const ownedIds = owned.map((s) => s.id);
    const keys = await deps.files.release(tx, ownedIds);
    const deleted = await deleteSubmissionsOfOwner(tx, ownerId, ownedIds);
    return { deleted, keys };
  });
  await Promise.all(
    keys.map((key) =>
      deps.files.removeFile(key).catch((error: unknown) => {
        deps.log.warn({ err: error, key }, 'file of a deleted submission left for the orphan sweep');
      }),
    ),
  );
  return deleted.length;
}
