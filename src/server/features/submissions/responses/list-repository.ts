// The SQL of reading an owner's responses a page at a time, filtered by answer text and by day.
import { containsPattern, type ResponseFilter } from '#common/response-filter.ts';
import type { Queryable } from '../../../db/database.ts';
import { COLUMNS, toRecord, type SubmissionRecord, type SubmissionRow } from '../repository.ts';

/**
 * The SQL conditions for a filter, its values appended to `params`. The text search reads every text and choice
 * answer of the form's rows (file answers are upload ids, not text): no index serves a substring of a jsonb value,
 * so a filtered page costs O(the form's rows) rather than O(page). docs/decisions/022-managing-responses.md.
 */
function filterConditions(filter: ResponseFilter, timeZone: string, params: unknown[]): string[] {
  const where: string[] = [];
  if (filter.q) {
    params.push(containsPattern(filter.q));
    where.push(`exists (select 1 from jsonb_array_elements(answers) e
                  cross join lateral jsonb_array_elements_text(case jsonb_typeof(e.value -> 'value')
                    when 'array' then e.value -> 'value' when 'string' then jsonb_build_array(e.value -> 'value')
                    else '[]'::jsonb end) v(text)
                 where v.text ilike $${params.length} escape '\\')`);
  }
  if (filter.fromDate || filter.toDate) params.push(timeZone);
  const zone = params.length;
  if (filter.fromDate) {
    params.push(filter.fromDate);
    where.push(`created_at >= ($${params.length}::date)::timestamp at time zone $${zone}`);
  }
  if (filter.toDate) {
    params.push(filter.toDate);
    where.push(`created_at < ($${params.length}::date + 1)::timestamp at time zone $${zone}`);
  }
  return where;
}

/** How many of the form's submissions the filter lets through: O(the form's rows), unlike the kept count. */
export async function countFilteredSubmissions(
  db: Queryable,
  scope: { ownerId: string; formId: string },
  filter: ResponseFilter,
  timeZone: string,
): Promise<number> {
  const params: unknown[] = [scope.ownerId, scope.formId];
  const where = ['owner_id = $1', 'form_id = $2', ...filterConditions(filter, timeZone, params)];
  const [row] = await db.query<{ n: number }>(
    `select count(*)::int as n from submissions where ${where.join(' and ')}`,
    params,
  );
  return row?.n ?? 0;
}

export type Cursor = { createdAt: string; id: string };
/**
 * One page: `after` a cursor goes on in the list's order, `before` one goes back, `oldest` starts at the list's far
 * end; `oldestFirst` turns the list's order (newest first) round.
 */
export type ListPage = {
  limit: number;
  after?: Cursor;
  before?: Cursor;
  oldest?: boolean;
  oldestFirst?: boolean;
};
export type Page<T> = { items: T[]; hasMore: boolean };

/** The WHERE, ORDER BY and LIMIT of one keyset page (see listSubmissions), for the columns given. */
function keysetPage(
  columns: string,
  scope: { ownerId: string; formId?: string; filter?: ResponseFilter; timeZone?: string },
  page: ListPage,
): { sql: string; params: unknown[]; backwards: boolean } {
  const params: unknown[] = [scope.ownerId];
  const where = ['owner_id = $1'];
  if (scope.formId) {
    params.push(scope.formId);
    where.push(`form_id = $${params.length}`);
  }
  if (scope.filter) where.push(...filterConditions(scope.filter, scope.timeZone ?? 'UTC', params));
  const backwards = Boolean(page.before) || Boolean(page.oldest);
  // Read in the list's order, or against it going back; oldest first flips both.
  const descending = backwards === Boolean(page.oldestFirst);
  const cursor = page.after ?? page.before;
  if (cursor) {
    params.push(cursor.createdAt, cursor.id);
    const op = descending ? '<' : '>';
    where.push(`(created_at, id) ${op} ($${params.length - 1}::timestamptz, $${params.length}::uuid)`);
  }
  params.push(page.limit + 1);
  const order = descending ? 'desc' : 'asc';
  const sql = `select ${columns} from submissions where ${where.join(' and ')}
      order by created_at ${order}, id ${order} limit $${params.length}`;
  return { sql, params, backwards };
}

/**
 * Keyset paging, newest first: `after` continues towards older rows, `before` goes back towards newer ones, and
 * `oldest` starts at the far end. Every page costs the same however many rows the form has.
 */
export async function listSubmissions(
  db: Queryable,
  scope: { ownerId: string; formId?: string; filter?: ResponseFilter; timeZone?: string },
  page: ListPage,
): Promise<Page<SubmissionRecord>> {
  const { sql, params, backwards } = keysetPage(COLUMNS, scope, page);
  const rows = await db.query<SubmissionRow>(sql, params);
  const hasMore = rows.length > page.limit;
  const items = rows.slice(0, page.limit).map(toRecord);
  return { items: backwards ? items.reverse() : items, hasMore };
}

export type AnswersRow = Pick<SubmissionRecord, 'id' | 'createdAt' | 'answers' | 'hidden'>;

/**
 * The same pages, newest first, of only what the CSV export writes: a submission's id, time and answers. The
 * other columns (the form's title and description as they were, the contact line) are most of a row's bytes, and
 * every byte read is memory the export allocates.
 */
export async function listSubmissionAnswers(
  db: Queryable,
  scope: { ownerId: string; formId: string; filter?: ResponseFilter; timeZone?: string },
  page: { limit: number; after?: Cursor },
): Promise<Page<AnswersRow>> {
  const { sql, params } = keysetPage('id, created_at, answers, hidden', scope, page);
  const rows = await db.query<Pick<SubmissionRow, 'id' | 'created_at' | 'answers' | 'hidden'>>(sql, params);
  return {
    items: rows
      .slice(0, page.limit)
      .map((r) => ({ id: r.id, createdAt: r.created_at, answers: r.answers, hidden: r.hidden })),
    hasMore: rows.length > page.limit,
  };
}
