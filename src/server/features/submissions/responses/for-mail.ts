import type { Queryable } from '../../../db/database.ts';
import { uploadIdsOf, type StoredAnswer } from '../repository.ts';
import { cellOf } from './csv.ts';

/** A stored submission as a mail about it shows it: each answer as text, files by their names. */
export type SubmissionAsText = {
  id: string;
  formId: string;
  createdAt: Date;
  answers: { fieldId: string; question: string; text: string }[];
};

/** The submissions among these ids that exist, with their answers as the CSV export writes them. */
export async function findSubmissionsAsText(
  db: Queryable,
  ids: readonly string[],
  fileNames: (db: Queryable, uploadIds: string[]) => Promise<Map<string, string>>,
): Promise<SubmissionAsText[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<{ id: string; form_id: string; created_at: Date; answers: StoredAnswer[] }>(
    'select id, form_id, created_at, answers from submissions where id = any($1::uuid[]) order by created_at, id',
    [ids],
    { prepare: 'submissions_for_mail' },
  );
  const uploadIds = rows.flatMap((r) => r.answers.flatMap((a) => uploadIdsOf(a)));
  const names = uploadIds.length > 0 ? await fileNames(db, uploadIds) : new Map<string, string>();
  return rows.map((r) => ({
    id: r.id,
    formId: r.form_id,
    createdAt: r.created_at,
    answers: r.answers.map((a) => ({
      fieldId: a.fieldId,
      question: a.name,
      text: cellOf(a, (id) => names.get(id) ?? 'a file'),
    })),
  }));
}
