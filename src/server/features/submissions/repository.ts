// The submissions table's SQL, shared by the three sides of the feature: ingest/ (the customer's answers, posted by
// the page's script), no-script/ (the same answers posted by the page without JavaScript, handed to ingest's
// submitter) and responses/ (the owner's reads, exports and deletes, and what mail and webhooks say). A submission
// is stored in one place: ingest/store.ts, through insertSubmissions below.
import type { QuestionKind } from '#common/forms.ts';
import type { KeptAnswer } from '#common/submissions.ts';
import type { Queryable } from '../../db/database.ts';
import { COUNTED_KINDS, countedValues } from './counted-values.ts';

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

export type NewSubmission = Omit<SubmissionRecord, 'createdAt' | 'keptAside' | 'path' | 'hidden'> & {
  hidden?: Record<string, string> | null;
  /** The ids of the pages the answers went through (docs/decisions/042-pages-and-conditions.md). */
  path?: string[];
  /** The questions it was not asked (Results count the responses each question was shown to); null: none. */
  skipped?: string[] | null;
  keptAside?: KeptAnswer[] | null;
  idempotencyKey: string | null;
  /** When set, the row is inserted only if the form is still at this version (it was checked against it). */
  formVersion: number | null;
};

/** The batch as the insert's one JSON parameter ($1), in the table's column names. */
export const batchParameter = (rows: readonly NewSubmission[]): string =>
  JSON.stringify(
    rows.map((s) => ({
      id: s.id,
      form_id: s.formId,
      owner_id: s.ownerId,
      form_title: s.formTitle,
      description: s.description,
      color: s.color,
      border: s.border,
      answers: s.answers,
      contact: s.contact,
      path: s.path ?? null,
      skipped: s.skipped ?? null,
      kept_aside: s.keptAside ?? null,
      hidden: s.hidden ?? null,
      idempotency_key: s.idempotencyKey,
      form_version: s.formVersion,
    })),
  );

/**
 * The first steps of the insert, as common table expressions: `added` (the rows of `batchParameter` stored, less
 * those whose idempotency key is taken or whose form version is stale) and `counted` (their forms' response counts
 * and newest-response times). The benchmark of the Results counters runs them alone (bench/insert-counters.ts).
 */
export const ADD_BATCH = `added as (
       insert into submissions (id, form_id, owner_id, form_title, description, color, border, answers, contact,
                                path, skipped, kept_aside, hidden, idempotency_key)
       select id, form_id, owner_id, form_title, description, color, border, answers, contact, path, skipped,
              kept_aside, hidden, idempotency_key
         from jsonb_to_recordset($1::jsonb) as r(id uuid, form_id uuid, owner_id uuid, form_title text,
              description text, color text, border text, answers jsonb, contact text, path jsonb,
              skipped jsonb, kept_aside jsonb, hidden jsonb, idempotency_key text, form_version integer)
        where r.form_version is null
           or exists (select 1 from forms f where f.id = r.form_id and f.version = r.form_version)
       on conflict (form_id, idempotency_key) where idempotency_key is not null do nothing
       returning id, form_id, answers, skipped
     ), counted as (
       update forms f set response_count = f.response_count + c.n, latest_response_at = now()
         from (select form_id, count(*)::int as n from added group by form_id) c
        where f.id = c.form_id
     )`;

/**
 * Inserts the batch and adds it to its forms' response counts and newest-response times, and to the Results
 * counters (answers per question, responses per option, responses and per quarter hour), in one statement: each
 * counter gets one upsert for the whole batch (docs/decisions/020-results.md). A row is skipped when its form
 * already has a submission with its idempotency key, or when it names a form version that is no longer the form's.
 * Returns the ids actually inserted.
 */
export async function insertSubmissions(db: Queryable, rows: readonly NewSubmission[]): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await db.query<{ id: string }>(
    `with ${ADD_BATCH}, answered as (
       select a.form_id, e.value as answer from added a cross join lateral jsonb_array_elements(a.answers) e
     ), fields_counted as (
       insert into form_field_counts as c (form_id, field_id, responses)
       select form_id, answer ->> 'fieldId', count(*) from answered group by 1, 2
       on conflict (form_id, field_id) do update set responses = c.responses + excluded.responses
     ), options_counted as (
       insert into form_option_counts as c (form_id, field_id, option, count)
       select form_id, answer ->> 'fieldId', o.option, count(*)
         from answered cross join lateral ${countedValues('answer')} o(option)
        where answer ->> 'kind' in ${COUNTED_KINDS}
        group by 1, 2, 3
       on conflict (form_id, field_id, option) do update set count = c.count + excluded.count
     ), skips_counted as (
       insert into form_skip_counts as c (form_id, field_id, responses)
       select a.form_id, k.field_id, count(*)
         from added a cross join lateral jsonb_array_elements_text(a.skipped) k(field_id)
        where a.skipped is not null
        group by 1, 2
       on conflict (form_id, field_id) do update set responses = c.responses + excluded.responses
     ), quarters_counted as (
       insert into form_quarter_counts as c (form_id, quarter, responses)
       select form_id, quarter_of(now()), count(*) from added group by 1
       on conflict (form_id, quarter) do update set responses = c.responses + excluded.responses
     ), notified as (
       -- Owner notifications (docs/decisions/021-response-notifications.md): one event per form of the batch, in
       -- this statement, so a committed submission always has its notification, at no extra round trip.
       insert into response_events (form_id, submission_ids, copies_sent)
       select a.form_id, array_agg(a.id), not f.respondent_copy from added a join forms f on f.id = a.form_id
        where f.notify_owner or f.respondent_copy
        group by a.form_id, f.respondent_copy
     ), hooked as (
       -- Webhooks (docs/decisions/023-webhooks.md): one row per form of the batch that has any, with the batch's
       -- ids, in this statement like the notification; the sender makes the deliveries from it. A form without
       -- webhooks costs one index probe.
       insert into webhook_batches (form_id, submission_ids)
       select a.form_id, array_agg(a.id) from added a
        group by a.form_id
       having exists (select 1 from webhooks w where w.form_id = a.form_id)
     )
     select id from added`,
    [batchParameter(rows)],
    // Planning this statement costs PostgreSQL more than running it for a small batch: plan it once per connection.
    { prepare: 'insert_submissions' },
  );
  return new Set(inserted.map((r) => r.id));
}

/** The stored submission ids for (form, idempotency key) pairs, keyed `${formId} ${key}`. */
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
