// Named statements on the embedded engine (docs/decisions/044-embedded-prepared-statements.md). PGlite's client parses
// and plans every query afresh, and the submissions' insert (one statement with eight parts) cost about 5 ms to parse
// and plan against well under 1 ms to run. PostgreSQL's own PREPARE keeps the plan for the session (PGlite has one);
// EXECUTE takes its arguments as literals, each dollar-quoted under a tag its text does not hold.
import type { Row } from './queryable.ts';

type Engine = {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
};

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * `text` as a dollar-quoted literal: `$p$…$p$`, under the first tag that neither occurs in it nor forms with its end
 * (text ending in `$p` would close `$p$` one character early).
 */
export function dollarQuoted(text: string): string {
  let tag = 'p';
  for (let n = 1; `${text}$`.includes(`$${tag}$`); n++) tag = `p${n}`;
  return `$${tag}$${text}$${tag}$`;
}

/** A text, finite number, boolean or null as the text of its literal; undefined for anything else. */
function scalarText(param: unknown): string | null | undefined {
  if (param === null || typeof param === 'string') return param;
  if ((typeof param === 'number' && Number.isFinite(param)) || typeof param === 'boolean')
    return String(param);
  return undefined;
}

/**
 * A flat list of such values as PostgreSQL's array input (`{"a","b",NULL}`): each item double-quoted with its `\`
 * and `"` escaped, so no text can end its item, and null as NULL. Undefined for a nested list or another value.
 */
export function arrayText(list: readonly unknown[]): string | undefined {
  const items: string[] = [];
  for (const item of list) {
    const text = scalarText(item);
    if (text === undefined) return undefined;
    items.push(text === null ? 'NULL' : `"${text.replace(/[\\"]/g, '\\$&')}"`);
  }
  return `{${items.join(',')}}`;
}

/** Whether the statement casts parameter `n` (1-based) to an array type: `$2::uuid[]`, `$1::double precision[]`. */
const castsToArray = (sql: string, n: number) => new RegExp(`\\$${n}::[a-z_ ]+\\[\\]`, 'i').test(sql);

/**
 * A parameter as the text of its literal; undefined for one that needs the client's own conversion: a list the
 * statement does not cast to an array type (a JSON parameter takes a list as JSON).
 */
function textOf(sql: string, param: unknown, index: number): string | null | undefined {
  if (!Array.isArray(param)) return scalarText(param);
  return castsToArray(sql, index + 1) ? arrayText(param) : undefined;
}

/**
 * Runs `sql` as the session's prepared statement `name` (prepared on first use), when every parameter is text, a
 * finite number, a boolean, null, or a flat list of those that the statement casts to an array type (`$1::uuid[]`);
 * else, or for a name that is not a plain identifier, as an ordinary query.
 */
export async function queryPrepared<T extends Row>(
  engine: Engine,
  prepared: Set<string>,
  name: string,
  sql: string,
  params: readonly unknown[],
): Promise<{ rows: T[] }> {
  const texts = params.map((param, i) => textOf(sql, param, i));
  if (texts.includes(undefined) || !NAME.test(name)) return engine.query<T>(sql, [...params]);
  if (!prepared.has(name)) {
    await engine.exec(`prepare ${name} as ${sql}`);
    prepared.add(name);
  }
  const args = texts.map((t) => (t === null || t === undefined ? 'null' : dollarQuoted(t)));
  return engine.query<T>(`execute ${name}${args.length > 0 ? `(${args.join(', ')})` : ''}`);
}
