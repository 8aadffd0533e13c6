// The one statement that stores submissions (a batch of them) with everything counted beside them: the forms'
// counts, the Results counters, the owners' notification and webhook events (docs/decisions/013-group-commit.md,
// 020-results.md). Called by ingest/store.ts only; the bench measures it (bench/insert-counters.ts).
import type { KeptAnswer } from '#common/submissions.ts';
import type { Queryable } from '../../db/database.ts';
import { COUNTED_KINDS, countedValues } from './counted-values.ts';
import type { SubmissionRecord } from './repository.ts';

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
