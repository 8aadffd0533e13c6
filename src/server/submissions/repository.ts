import type { FieldKind } from '#common/forms.ts';
import type { Queryable } from '../db/database.ts';

/** One answer as stored: in the form's question order, with the question's name as it was when answered. */
export type StoredAnswer = {
  fieldId: string;
  kind: FieldKind;
  name: string;
  value: string | string[] | { uploadId: string };
};

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
};

type SubmissionRow = {
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
};
const COLUMNS = 'id, form_id, owner_id, created_at, form_title, description, color, border, answers, contact';
const toRecord = (r: SubmissionRow): SubmissionRecord => ({
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
});

/** Inserts unless this form already has a submission with the key; returns the id and whether it is new. */
export async function insertSubmission(
  db: Queryable,
  s: Omit<SubmissionRecord, 'id' | 'createdAt'> & { idempotencyKey: string | null },
): Promise<{ id: string; isNew: boolean }> {
  const [row] = await db.query<{ id: string }>(
    `insert into submissions (form_id, owner_id, form_title, description, color, border, answers, contact, idempotency_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     on conflict (form_id, idempotency_key) where idempotency_key is not null do nothing
     returning id`,
    [
      s.formId,
      s.ownerId,
      s.formTitle,
      s.description,
      s.color,
      s.border,
      JSON.stringify(s.answers),
      s.contact,
      s.idempotencyKey,
    ],
  );
  if (row) {
    await db.query(
      'update forms set response_count = response_count + 1, latest_response_at = now() where id = $1',
      [s.formId],
    );
    return { id: row.id, isNew: true };
  }
  const [existing] = await db.query<{ id: string }>(
    'select id from submissions where form_id = $1 and idempotency_key = $2',
    [s.formId, s.idempotencyKey],
  );
  if (!existing) throw new Error('idempotent insert found neither a new nor an existing row');
  return { id: existing.id, isNew: false };
}

export async function findSubmissionByIdempotencyKey(
  db: Queryable,
  formId: string,
  key: string,
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    'select id from submissions where form_id = $1 and idempotency_key = $2',
    [formId, key],
  );
  return row?.id ?? null;
}

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

export type Cursor = { createdAt: string; id: string };
export type Page<T> = { items: T[]; hasMore: boolean };

/**
 * Keyset paging, newest first: `after` continues towards older rows, `before` goes back towards newer ones, and
 * `oldest` starts at the far end. Every page costs the same however many rows the form has.
 */
export async function listSubmissions(
  db: Queryable,
  scope: { ownerId: string; formId?: string },
  page: { limit: number; after?: Cursor; before?: Cursor; oldest?: boolean },
): Promise<Page<SubmissionRecord>> {
  const params: unknown[] = [scope.ownerId];
  const where = ['owner_id = $1'];
  if (scope.formId) {
    params.push(scope.formId);
    where.push(`form_id = $${params.length}`);
  }
  const backwards = Boolean(page.before) || Boolean(page.oldest);
  const cursor = page.after ?? page.before;
  if (cursor) {
    params.push(cursor.createdAt, cursor.id);
    const op = page.after ? '<' : '>';
    where.push(`(created_at, id) ${op} ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(page.limit + 1);
  const rows = await db.query<SubmissionRow>(
    `select ${COLUMNS} from submissions where ${where.join(' and ')}
      order by created_at ${backwards ? 'asc' : 'desc'}, id ${backwards ? 'asc' : 'desc'} limit $${params.length}`,
    params,
  );
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toRecord);
  return { items: backwards ? items.reverse() : items, hasMore };
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
