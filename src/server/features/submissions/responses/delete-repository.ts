// The SQL of deleting an owner's responses: each deleted row is taken out of every count the insert added it to.
import type { Queryable } from '../../../db/database.ts';
import { COUNTED_KINDS, countedValues } from '../counted-values.ts';

/**
 * Deletes those of `ids` that are the owner's and takes them out of everything the insert added them to, in the
 * caller's transaction: their forms' response counts and newest-response times, and the Results counters (one
 * update per counter for the whole set; counters left at zero are removed, as `rebuild_form_results` would leave
 * them). Their upload rows go by the foreign key's cascade: the caller releases them first to learn the files.
 * Returns the ids deleted.
 */
export async function deleteSubmissionsOfOwner(
  tx: Queryable,
  ownerId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const gone = await tx.query<{ id: string; form_id: string }>(
    `with gone as (
       delete from submissions where owner_id = $1 and id = any($2::uuid[])
       returning id, form_id, answers, skipped, created_at
     ), counted as (
       -- The subquery sees the rows as they were before this statement, so the deleted ones are left out by id.
       update forms f set response_count = f.response_count - c.n,
              latest_response_at = (select max(s.created_at) from submissions s
                                     where s.form_id = f.id and s.id <> all($2::uuid[]))
         from (select form_id, count(*)::int as n from gone group by form_id) c
        where f.id = c.form_id
     ), answered as (
       select g.form_id, e.value as answer from gone g cross join lateral jsonb_array_elements(g.answers) e
     ), fields_counted as (
       update form_field_counts c set responses = c.responses - d.n
         from (select form_id, answer ->> 'fieldId' as field_id, count(*)::int as n from answered group by 1, 2) d
        where c.form_id = d.form_id and c.field_id = d.field_id
     ), options_counted as (
       update form_option_counts c set count = c.count - d.n
         from (select form_id, answer ->> 'fieldId' as field_id, o.option, count(*)::int as n
                 from answered cross join lateral ${countedValues('answer')} o(option)
                where answer ->> 'kind' in ${COUNTED_KINDS}
                group by 1, 2, 3) d
        where c.form_id = d.form_id and c.field_id = d.field_id and c.option = d.option
     ), skips_counted as (
       update form_skip_counts c set responses = c.responses - d.n
         from (select g.form_id, k.field_id, count(*)::int as n
                 from gone g cross join lateral jsonb_array_elements_text(g.skipped) k(field_id)
                where g.skipped is not null
                group by 1, 2) d
        where c.form_id = d.form_id and c.field_id = d.field_id
     ), quarters_counted as (
       update form_quarter_counts c set responses = c.responses - d.n
         from (select form_id, quarter_of(created_at) as quarter, count(*)::int as n from gone group by 1, 2) d
        where c.form_id = d.form_id and c.quarter = d.quarter
     )
     select id, form_id from gone`,
    [ownerId, ids],
  );
  const formIds = [...new Set(gone.map((r) => r.form_id))];
  if (formIds.length > 0) {
    // A row updated above cannot be deleted in the same statement: the emptied counters go in a second one.
    await tx.query(
      `with options as (delete from form_option_counts where form_id = any($1::uuid[]) and count <= 0),
            skips as (delete from form_skip_counts where form_id = any($1::uuid[]) and responses <= 0)
       delete from form_field_counts where form_id = any($1::uuid[]) and responses <= 0`,
      [formIds],
    );
  }
  return gone.map((r) => r.id);
}

/** Those of `ids` that are the owner's submissions (of `formId`, if given), locked until the caller's transaction ends. */
export async function lockSubmissionsOfOwner(
  tx: Queryable,
  scope: { ownerId: string; formId?: string | undefined },
  ids: readonly string[],
): Promise<{ id: string; formId: string }[]> {
  const rows = await tx.query<{ id: string; form_id: string }>(
    `select id, form_id from submissions where owner_id = $1 and id = any($2::uuid[]) and ($3::uuid is null or form_id = $3)
      order by id for update`,
    [scope.ownerId, ids, scope.formId ?? null],
  );
  return rows.map((r) => ({ id: r.id, formId: r.form_id }));
}

/** The forms of those of `ids` that are the owner's submissions (a submission never changes form: read unlocked). */
export async function formIdsOfSubmissions(
  db: Queryable,
  ownerId: string,
  ids: readonly string[],
): Promise<string[]> {
  const rows = await db.query<{ form_id: string }>(
    'select distinct form_id from submissions where owner_id = $1 and id = any($2::uuid[])',
    [ownerId, ids],
  );
  return rows.map((r) => r.form_id);
}
