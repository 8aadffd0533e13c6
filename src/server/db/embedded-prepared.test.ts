// Named statements on the embedded engine: prepared once for the session, run with their text arguments quoted so
// that no text can end its quote, the same rows as the statement run plainly, in and out of a transaction, on the
// engine in this thread and on its own thread (a file-backed data directory).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';
import { arrayText, dollarQuoted } from './embedded-prepared.ts';
import type { Database } from './queryable.ts';

const INSERT = `insert into notes (body, doc) select $1, $2::jsonb returning id, body, doc`;

async function check(db: Database) {
  await db.exec('create table notes (id serial primary key, body text, doc jsonb)');
  const texts = fc.string({ unit: fc.constantFrom('a', '$', 'p', '1', "'", '\\', 'é', ' ', '"') });
  await fc.assert(
    fc.asyncProperty(texts, fc.dictionary(texts, texts), async (body, doc) => {
      const params = [body, JSON.stringify(doc)];
      const [named] = await db.query<{ body: string; doc: unknown }>(INSERT, params, { prepare: 'add_note' });
      const [plain] = await db.query<{ body: string; doc: unknown }>(INSERT, params);
      expect(named?.body).toBe(body);
      expect(JSON.stringify(named?.doc)).toBe(JSON.stringify(plain?.doc));
    }),
    { numRuns: 200 },
  );
  // In a transaction, and rolled back with it.
  await expect(
    db.transaction(async (tx) => {
      await tx.query(INSERT, ['$p$ in a transaction', '{}'], { prepare: 'add_note' });
      throw new Error('undo');
    }),
  ).rejects.toThrow('undo');
  const [{ n } = { n: -1 }] = await db.query<{ n: number }>(
    `select count(*)::int as n from notes where body = '$p$ in a transaction'`,
  );
  expect(n).toBe(0);
  // A table changed after the statement was prepared: PostgreSQL plans it again.
  await db.exec('alter table notes add column tag text default $$x$$');
  const [later] = await db.query<{ id: number }>(INSERT, [null, '[1]'], { prepare: 'add_note' });
  expect(await db.query('select body, doc, tag from notes where id = $1', [later?.id])).toEqual([
    { body: null, doc: [1], tag: 'x' },
  ]);
  // Numbers and booleans as their literals.
  expect(
    await db.query('select $1::int + 1 as n, $2::double precision as x, $3::boolean as b', [41, 0.5, true], {
      prepare: 'some_values',
    }),
  ).toEqual([{ n: 42, x: 0.5, b: true }]);
  // Lists, as array parameters: the same items back, whatever their text.
  const items = fc.string({
    unit: fc.constantFrom('a', '"', '\\', '{', '}', ',', ' ', '$', 'N', 'U', 'L', 'é'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(fc.option(items)), fc.array(fc.integer()), async (texts, numbers) => {
      const sql = 'select $1::text[] as texts, $2::int[] as numbers, cardinality($1::text[]) as n';
      const [named] = await db.query(sql, [texts, numbers], { prepare: 'some_lists' });
      expect(named).toEqual({ texts, numbers, n: texts.length });
      expect(named).toEqual((await db.query(sql, [texts, numbers]))[0]);
    }),
    { numRuns: 200 },
  );
  // A nested list: run as an ordinary query.
  expect(await db.query('select $1::int[] as list', [[[1], [2]]], { prepare: 'a_nested_list' })).toEqual([
    { list: [[1], [2]] },
  ]);
  // A list for a JSON parameter is the client's to convert (as JSON): run as an ordinary query.
  expect(await db.query('select $1::jsonb as doc', [['a', 1]], { prepare: 'a_json_list' })).toEqual([
    { doc: ['a', 1] },
  ]);
  const preparedNames = await db.query<{ name: string }>(
    'select name from pg_prepared_statements order by name',
  );
  expect(preparedNames.map((r) => r.name)).toEqual(['add_note', 'some_lists', 'some_values']);
}

describe('named statements on the embedded engine', () => {
  it('quote any text under a tag it does not hold', () => {
    expect(dollarQuoted('plain')).toBe('$p$plain$p$');
    expect(dollarQuoted('a $p$ b')).toBe('$p1$a $p$ b$p1$');
    expect(dollarQuoted('$p$ and $p1$')).toBe('$p2$$p$ and $p1$$p2$');
    expect(dollarQuoted('ends in $p')).toBe('$p1$ends in $p$p1$');
  });

  it('write a list as an array literal, each item quoted, or leave it to the client', () => {
    expect(arrayText(['a', 'b "c"', 'd\\e', null, 'NULL'])).toBe('{"a","b \\"c\\"","d\\\\e",NULL,"NULL"}');
    expect(arrayText([1, 2.5, true])).toBe('{"1","2.5","true"}');
    expect(arrayText([])).toBe('{}');
    expect(arrayText([[1]])).toBeUndefined();
    expect(arrayText([new Date(0)])).toBeUndefined();
  });

  it('give the rows the plain statement gives, in this thread', async () => {
    const db = await openDatabase({ databaseUrl: 'memory://', dataDir: '', lockRetries: 0 });
    try {
      await check(db);
    } finally {
      await db.close();
    }
  });

  it('and on the engine’s own thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'easyform-prepared-'));
    const db = await openDatabase({
      databaseUrl: undefined,
      dataDir: dir,
      lockRetries: 0,
      embeddedSync: false,
    });
    try {
      await check(db);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
