import type { Queryable } from '../../../db/database.ts';
import { uploadIdsOf, type StoredAnswer } from '../repository.ts';

export type SubmissionAsPayload = {
  form: { id: string; title: string };
  submission: { id: string; createdAt: string };
  answers: {
    fieldId: string;
    question: string;
    kind: string;
    value: string | string[] | Readonly<Record<string, string>> | null;
    /** A file question's first file; null for any other answer. */
    file: { name: string; url: string } | null;
    /** A file question's files, in the order given; only on a file question's answer. */
    files?: { name: string; url: string }[];
  }[];
  /** The hidden fields the form's link filled, by name ({} when none). */
  hidden: Record<string, string>;
};

type FileOf = { name: string; url: string };

/**
 * Stored submissions as a webhook sends them (docs/decisions/023-webhooks.md), by id: every answer by question, as
 * stored; files by name and a URL from `filesOf`, asked once for all of them. Ids of submissions that are gone are
 * not in the map.
 */
export async function findSubmissionsAsPayload(
  db: Queryable,
  ids: readonly string[],
  filesOf: (db: Queryable, uploadIds: string[]) => Promise<Map<string, FileOf>>,
): Promise<Map<string, SubmissionAsPayload>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{
    id: string;
    form_id: string;
    form_title: string;
    created_at: Date;
    answers: StoredAnswer[];
    hidden: Record<string, string> | null;
  }>(
    'select id, form_id, form_title, created_at, answers, hidden from submissions where id = any($1::uuid[])',
    [ids],
    { prepare: 'submissions_for_webhook' },
  );
  const uploadIds = rows.flatMap((r) => r.answers.flatMap((a) => uploadIdsOf(a)));
  const files = uploadIds.length > 0 ? await filesOf(db, uploadIds) : new Map<string, FileOf>();
  return new Map(
    rows.map((r) => [
      r.id,
      {
        form: { id: r.form_id, title: r.form_title },
        submission: { id: r.id, createdAt: r.created_at.toISOString() },
        answers: r.answers.map((a) => {
          const about = { fieldId: a.fieldId, question: a.name, kind: a.kind };
          if (a.kind !== 'file')
            return {
              ...about,
              value: a.value as string | string[] | Readonly<Record<string, string>>,
              file: null,
            };
          const given = uploadIdsOf(a).flatMap((id) => files.get(id) ?? []);
          return { ...about, value: null, file: given[0] ?? null, files: given };
        }),
        hidden: r.hidden ?? {},
      },
    ]),
  );
}
