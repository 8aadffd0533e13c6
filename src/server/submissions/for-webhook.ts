import type { Queryable } from '../db/database.ts';
import type { StoredAnswer } from './repository.ts';

export type SubmissionAsPayload = {
  form: { id: string; title: string };
  submission: { id: string; createdAt: string };
  answers: {
    fieldId: string;
    question: string;
    kind: string;
    value: string | string[] | null;
    file: { name: string; url: string } | null;
  }[];
};

/**
 * A stored submission as a webhook sends it (docs/decisions/023-webhooks.md): every answer by question, as stored;
 * files by name and a URL from `filesOf`. Null when the submission is gone.
 */
export async function findSubmissionAsPayload(
  db: Queryable,
  id: string,
  filesOf: (db: Queryable, uploadIds: string[]) => Promise<Map<string, { name: string; url: string }>>,
): Promise<SubmissionAsPayload | null> {
  const [row] = await db.query<{
    id: string;
    form_id: string;
    form_title: string;
    created_at: Date;
    answers: StoredAnswer[];
  }>('select id, form_id, form_title, created_at, answers from submissions where id = $1', [id]);
  if (!row) return null;
  const uploadIds = row.answers.flatMap((a) =>
    typeof a.value === 'object' && !Array.isArray(a.value) ? [a.value.uploadId] : [],
  );
  const files =
    uploadIds.length > 0 ? await filesOf(db, uploadIds) : new Map<string, { name: string; url: string }>();
  return {
    form: { id: row.form_id, title: row.form_title },
    submission: { id: row.id, createdAt: row.created_at.toISOString() },
    answers: row.answers.map((a) => {
      const isFile = typeof a.value === 'object' && !Array.isArray(a.value);
      const file = isFile ? (files.get((a.value as { uploadId: string }).uploadId) ?? null) : null;
      return {
        fieldId: a.fieldId,
        question: a.name,
        kind: a.kind,
        value: isFile ? null : (a.value as string | string[]),
        file,
      };
    }),
  };
}
