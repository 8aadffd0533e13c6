import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Queryable } from '../../db/database.ts';
import { cutShort, DATABASE_ENTRY, OperatorError, STORAGE_KEY } from './archive.ts';
import { ident, tablesInLoadOrder, type TableShape } from './tables.ts';

/**
 * Loads the rows of a backup's database.sql into `tx`, as data: the file is read, never executed. A backup is as
 * trusted as the database it holds, not as a shell on the host, so a crafted one (a `drop table`, a
 * `copy … to program`, an insert into a table the app does not have) is refused, naming the statement, before
 * anything is loaded. Each line must be one of the statements backup.ts writes (`dumpRows`): its two `set`s, the
 * `alter table … disable|enable trigger user` around the rows, `insert … json_populate_recordset(…, '<json>')` and
 * `select setval(…)`, each naming a table of the schema the backup had (the target is migrated to it first) and
 * only that table's columns. The rows go in as one parameter of a statement written here from the catalog's
 * names; an upload row's storage key must be a key this app makes. The caller's transaction makes it all or nothing.
 */
export async function loadRows(tx: Queryable, entry: Readable): Promise<void> {
  const tables = new Map((await tablesInLoadOrder(tx)).map((t) => [t.name, t]));
  // The rows are loaded as they were: the app's own triggers (a form's version bumped when a question is added)
  // must not run again. Foreign keys stay checked. Done here for every table, whatever the file says.
  for (const name of tables.keys()) await tx.query(`alter table ${ident(name)} disable trigger user`);
  let number = 0;
  for await (const statement of statementsOf(entry)) {
    number += 1;
    const refuse = (why: string) =>
      new OperatorError(
        `The backup's ${DATABASE_ENTRY} holds a statement this version does not load (statement ${number}, ` +
          `${why}): ${JSON.stringify(statement.slice(0, 100))}. Nothing was restored.`,
      );
    const table = (name: string | undefined) => {
      const known = name === undefined ? undefined : tables.get(name);
      if (!known) throw refuse(`no table ${JSON.stringify(name)} in the backup's schema`);
      return known;
    };
    if (SETTING.test(statement)) continue;
    const triggers = TRIGGERS.exec(statement);
    if (triggers) {
      table(triggers[1]);
      continue;
    }
    const serial = SETVAL.exec(statement);
    if (serial) {
      const shape = table(serial[1]);
      const column = serial[2] ?? '';
      if (serial[1] !== serial[4] || column !== serial[3] || !shape.serial.includes(column))
        throw refuse(`no sequence for ${JSON.stringify(column)}`);
      await tx.query(
        `select setval(pg_get_serial_sequence($1, $2), coalesce(max(${ident(column)}), 0) + 1, false) from ${ident(shape.name)}`,
        [ident(shape.name), column],
      );
      continue;
    }
    const insert = rowsOf(statement, refuse);
    const shape = table(insert.table);
    await insertRows(tx, shape, insert.columns, insert.json, refuse);
  }
  for (const name of tables.keys()) await tx.query(`alter table ${ident(name)} enable trigger user`);
}

const SETTING = /^set (client_encoding = 'UTF8'|standard_conforming_strings = on);$/;
const TRIGGERS = /^alter table "(\w+)" (?:disable|enable) trigger user;$/;
const SETVAL =
  /^select setval\(pg_get_serial_sequence\('"(\w+)"', '(\w+)'\), coalesce\(max\("(\w+)"\), 0\) \+ 1, false\) from "(\w+)";$/;
/** An insert's head; its rows follow as one string literal, then `');`. Names are ours: letters, digits, `_`. */
const INSERT_HEAD =
  /^insert into "(\w+)" \(((?:"\w+", )*"\w+")\) select ((?:"\w+", )*"\w+") from json_populate_recordset\(null::"(\w+)", '/;
const COLUMN = /^"(\w+)"$/;

type Refuse = (why: string) => OperatorError;

/** An insert statement's table, columns and rows (the JSON text of its literal), or a refusal. */
function rowsOf(statement: string, refuse: Refuse): { table: string; columns: string[]; json: string } {
  const head = INSERT_HEAD.exec(statement);
  if (!head || head[1] !== head[4] || head[2] !== head[3])
    throw refuse('not one of the statements a backup writes');
  const columns = (head[2] ?? '').split(', ').map((c) => COLUMN.exec(c)?.[1]);
  if (columns.some((c) => c === undefined)) throw refuse('not a list of column names');
  if (!statement.endsWith("');")) throw refuse('the rows are not one string literal');
  const literal = statement.slice(head[0].length, -3);
  // Inside the literal a quote is only ever doubled: any other one would end it and start more SQL.
  if (literal.replaceAll("''", '').includes("'")) throw refuse('the rows are not one string literal');
  return { table: head[1] ?? '', columns: columns as string[], json: literal.replaceAll("''", "'") };
}

async function insertRows(
  tx: Queryable,
  shape: TableShape,
  columns: string[],
  json: string,
  refuse: Refuse,
): Promise<void> {
  const unknown = columns.filter((c) => !shape.columns.includes(c));
  if (unknown.length > 0 || new Set(columns).size !== columns.length)
    throw refuse(`${shape.name} has no column ${JSON.stringify(unknown[0] ?? columns.join(','))}`);
  let rows: unknown;
  try {
    rows = JSON.parse(json);
  } catch (error) {
    throw refuse(`its rows are not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(rows)) throw refuse('its rows are not a list');
  for (const row of rows) {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) throw refuse('a row is not an object');
    const extra = Object.keys(row).find((key) => !columns.includes(key));
    if (extra !== undefined)
      throw refuse(`a row has a column not listed: ${JSON.stringify(extra.slice(0, 60))}`);
    if (shape.name === 'uploads') checkStorageKey(row as Record<string, unknown>);
  }
  const list = columns.map(ident).join(', ');
  const name = ident(shape.name);
  try {
    await tx.query(
      `insert into ${name} (${list}) select ${list} from json_populate_recordset(null::${name}, $1::json)`,
      [json],
    );
  } catch (error) {
    throw new OperatorError(
      `The backup's rows of ${shape.name} do not load (${(error as Error).message}). Nothing was restored.`,
    );
  }
}

/** An upload row names its file by a key the store made; anything else (`../../etc/passwd`) is refused here. */
export function checkStorageKey(row: Record<string, unknown>): void {
  const key = row.storage_key;
  if (typeof key === 'string' && STORAGE_KEY.test(key)) return;
  throw new OperatorError(
    `The backup's upload ${JSON.stringify(String(row.id).slice(0, 40))} names its file ` +
      `${JSON.stringify(String(key).slice(0, 80))}, which is not a storage key. Nothing was restored.`,
  );
}

/** The statements of database.sql: one a line, comments skipped; a line not ending in `;` continues the next. */
async function* statementsOf(entry: Readable): AsyncGenerator<string> {
  let pending = '';
  for await (const line of createInterface({ input: entry, crlfDelay: Infinity })) {
    if (pending === '' && (line.startsWith('--') || line.trim() === '')) continue;
    pending = pending === '' ? line : `${pending}\n${line}`;
    if (pending.endsWith(';')) {
      yield pending;
      pending = '';
    }
  }
  if (pending.trim() !== '') throw cutShort(`${DATABASE_ENTRY} ends inside a statement`);
}
