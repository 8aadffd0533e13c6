import { LATEST_TEXT_ANSWERS, RESULTS_DAYS } from '#common/results.ts';
import type { Queryable } from '../../db/database.ts';

export type ResultCounters = {
  /** Today in the zone the days are read in, YYYY-MM-DD. */
  today: string;
  responses: number;
  views: number;
  /** Responses on the days since the first counted view (views were not counted before migration 010). */
  responsesSinceViews: number;
  /** The last RESULTS_DAYS days (in the zone asked for) that have a row, any order. */
  days: { day: string; responses: number; views: number }[];
  /** Responses that answered each question, by field id. */
  answered: Map<string, number>;
  /** Responses that chose each option, by field id then option text. */
  options: Map<string, Map<string, number>>;
  /** Responses that were not asked each question (branching skipped it), by field id. */
  skipped: Map<string, number>;
};

/**
 * The form's Results counters: a few rows per question and at most 96 per day (quarter hours, summed into the days of
 * `timeZone`), however many submissions it has.
 */
export async function readResultCounters(
  db: Queryable,
  formId: string,
  timeZone: string,
): Promise<ResultCounters> {
  const [totals, days, fields, options, skips] = await Promise.all([
    db.query<{ today: string; responses: number; views: number; responses_since_views: number }>(
      `select (now() at time zone $2)::date::text as today,
              coalesce(sum(responses), 0)::int as responses,
              coalesce(sum(views), 0)::int as views,
              coalesce(sum(responses) filter (
                where quarter >= (select min(quarter) from form_quarter_counts where form_id = $1 and views > 0)),
                0)::int as responses_since_views
         from form_quarter_counts where form_id = $1`,
      [formId, timeZone],
    ),
    db.query<{ day: string; responses: number; views: number }>(
      `select (quarter at time zone $2)::date::text as day, sum(responses)::int as responses, sum(views)::int as views
         from form_quarter_counts
        where form_id = $1
          and quarter >= ((now() at time zone $2)::date - $3::int + 1)::timestamp at time zone $2
        group by 1`,
      [formId, timeZone, RESULTS_DAYS],
    ),
    db.query<{ field_id: string; responses: number }>(
      'select field_id, responses from form_field_counts where form_id = $1',
      [formId],
    ),
    db.query<{ field_id: string; option: string; count: number }>(
      'select field_id, option, count from form_option_counts where form_id = $1',
      [formId],
    ),
    db.query<{ field_id: string; responses: number }>(
      'select field_id, responses from form_skip_counts where form_id = $1',
      [formId],
    ),
  ]);
  const total = totals[0];
  const byField = new Map<string, Map<string, number>>();
  for (const r of options) {
    const counts = byField.get(r.field_id) ?? new Map<string, number>();
    counts.set(r.option, r.count);
    byField.set(r.field_id, counts);
  }
  return {
    today: total?.today ?? '',
    responses: total?.responses ?? 0,
    views: total?.views ?? 0,
    responsesSinceViews: total?.responses_since_views ?? 0,
    days,
    answered: new Map(fields.map((r) => [r.field_id, r.responses])),
    options: byField,
    skipped: new Map(skips.map((r) => [r.field_id, r.responses])),
  };
}

export type LatestTextAnswers = {
  id: string;
  createdAt: Date;
  answers: { fieldId: string; value: unknown }[];
};

/** The text answers of the form's newest submissions, read through the (form_id, created_at) index: only those rows. */
export async function findLatestTextAnswers(db: Queryable, formId: string): Promise<LatestTextAnswers[]> {
  const rows = await db.query<{ id: string; created_at: Date; answers: LatestTextAnswers['answers'] }>(
    `select id, created_at, jsonb_path_query_array(answers, '$[*] ? (@.kind == "text" || @.kind == "time" || @.kind == "url")') as answers
       from submissions where form_id = $1
      order by created_at desc, id desc limit $2`,
    [formId, LATEST_TEXT_ANSWERS],
  );
  return rows.map((r) => ({ id: r.id, createdAt: r.created_at, answers: r.answers }));
}
