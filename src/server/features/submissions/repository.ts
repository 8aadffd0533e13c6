// The submissions table's SQL, shared by the three sides of the feature: ingest/ (the customer's answers, posted by
// the page's script), no-script/ (the same answers posted by the page without JavaScript, handed to ingest's
// submitter) and responses/ (the owner's reads, exports and deletes, and what mail and webhooks say). A submission
// is stored in one place: ingest/store.ts, through insertSubmissions (insert-submissions.ts).
import type { QuestionKind } from '#common/forms.ts';
import type { KeptAnswer } from '#common/submissions.ts';
import type { Queryable } from '../../db/database.ts';

/** One answer as stored: in the form's question order, with the question's name as it was when answered. */
export type StoredAnswer = {
  fieldId: string;
  kind: QuestionKind;
  name: string;
  /**
   * Text or a chosen option, the ticked options, a file (`uploadId`) or several (`uploadIds`, a question that takes
   * more than one), or a grid's chosen column by row.
   */
  value:
    string | string[] | { uploadId: string } | { uploadIds: string[] } | Readonly<Record<string, string>>;
};

/**
 * The uploads a file answer names, in the order given; empty for any other answer (a grid's is an object too, by
 * row).
 */
export function uploadIdsOf(a: StoredAnswer): string[] {
  if (a.kind !== 'file' || typeof a.value !== 'object' || Array.isArray(a.value)) return [];
  if ('uploadId' in a.value) return [String(a.value.uploadId)];
  if ('uploadIds' in a.value && Array.isArray(a.value.uploadIds)) return a.value.uploadIds.map(String);
  return [];
}

export type SubmissionRecord = {
  id: string;
  formId: string;
  ownerId: string;
  createdAt: Date;
  formTitle: string;
  description: string;
  color: string;
  border: string;
  answers: StoredAnswer[];
  contact: string;
  /** Answers sent from an older version of the form that it no longer asks; null when none. */
  keptAside: KeptAnswer[] | null;
  /** The ids of the pages the response went through; null for one stored before pages existed. */
  path: string[] | null;
  /** The hidden fields the form's link filled, by name; null when none. */
  hidden: Record<string, string> | null;
};

export type SubmissionRow = {
  id: string;
  form_id: string;
  owner_id: string;
  created_at: Date;
  form_title: string;
  description: string;
  color: string;
  border: string;
  answers: StoredAnswer[];
  contact: string;
  kept_aside: KeptAnswer[] | null;
  path: string[] | null;
  hidden: Record<string, string> | null;
};
export const COLUMNS =
  'id, form_id, owner_id, created_at, form_title, description, color, border, answers, contact, kept_aside, path, hidden';
export const toRecord = (r: SubmissionRow): SubmissionRecord => ({
  id: r.id,
  formId: r.form_id,
  ownerId: r.owner_id,
  createdAt: r.created_at,
  formTitle: r.form_title,
  description: r.description,
  color: r.color,
  border: r.border,
  answers: r.answers,
  contact: r.contact,
  keptAside: r.kept_aside,
  path: r.path,
  hidden: r.hidden,
});

/** The stored submission of each (form, key) pair that has one: its id and the answers it was stored with. */
export async function findByIdempotencyKeys(
  db: Queryable,
  pairs: readonly { formId: string; key: string }[],
): Promise<Map<string, { id: string; answers: StoredAnswer[] }>> {
  if (pairs.length === 0) return new Map();
  const rows = await db.query<{
    id: string;
    form_id: string;
    idempotency_key: string;
    answers: StoredAnswer[];
  }>(
    `select s.id, s.form_id, s.idempotency_key, s.answers
       from submissions s
       join unnest($1::uuid[], $2::text[]) as k(form_id, key)
         on s.form_id = k.form_id and s.idempotency_key = k.key`,
    [pairs.map((p) => p.formId), pairs.map((p) => p.key)],
  );
  return new Map(
    rows.map((r) => [idempotencyIdOf(r.form_id, r.idempotency_key), { id: r.id, answers: r.answers }]),
  );
}

export const idempotencyIdOf = (formId: string, key: string) => `${formId} ${key}`;

export async function findSubmissionOfOwner(
  db: Queryable,
  ownerId: string,
  id: string,
): Promise<SubmissionRecord | null> {
  const [row] = await db.query<SubmissionRow>(
    `select ${COLUMNS} from submissions where id = $1 and owner_id = $2`,
    [id, ownerId],
  );
  return row ? toRecord(row) : null;
}

export type FormSummaryRow = {
  formId: string;
  formTitle: string;
  count: number;
  latestAt: Date | null;
  createdAt: Date;
};

/** One row per form of the owner, newest form first: counts kept by the insert, not counted here. */
export async function summariseForms(db: Queryable, ownerId: string): Promise<FormSummaryRow[]> {
  const rows = await db.query<{
    id: string;
    title: string;
    response_count: number;
    latest_response_at: Date | null;
    created_at: Date;
  }>(
    `select id, title, response_count, latest_response_at, created_at from forms
      where owner_id = $1 order by created_at desc, id`,
    [ownerId],
  );
  return rows.map((r) => ({
    formId: r.id,
    formTitle: r.title,
    count: r.response_count,
    latestAt: r.latest_response_at,
    createdAt: r.created_at,
  }));
}

export async function countSubmissionsOfForm(
  db: Queryable,
  ownerId: string,
  formId: string,
): Promise<number | null> {
  const [row] = await db.query<{ response_count: number }>(
    'select response_count from forms where id = $1 and owner_id = $2',
    [formId, ownerId],
  );
  return row ? row.response_count : null;
}

export type LockedForm = { version: number; responseCount: number; responseLimit: number | null };

/**
 * Locks these forms' rows for the caller's transaction (in id order, so two writers never wait on each other in a
 * circle) and reads what a limit is checked against. A concurrent writer's lock waits here until this one commits,
 * and then reads the count this one left (docs/decisions/019-form-limits.md).
 */
export async function lockFormCounts(
  tx: Queryable,
  formIds: readonly string[],
): Promise<Map<string, LockedForm>> {
  const rows = await tx.query<{
    id: string;
    version: number;
    response_count: number;
    response_limit: number | null;
  }>(
    `select id, version, response_count, response_limit from forms
      where id = any($1::uuid[]) order by id for update`,
    [formIds],
  );
  return new Map(
    rows.map((r) => [
      r.id,
      { version: r.version, responseCount: r.response_count, responseLimit: r.response_limit },
    ]),
  );
}
