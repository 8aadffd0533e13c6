// A crafted backup (issue 34, item 5): a restore reads database.sql as data and never runs it, and takes no storage
// key that is not one the store makes. Hostile variants of a real backup, generated, are each refused with the
// operator's kind of error, leaving the target's tables and store as they were and nothing outside the store
// touched. Both engines; on the PostgreSQL pass with files in S3 (scripts/test.mjs).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import fc from 'fast-check';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.ts';
import { FILE_KEY } from '../../storage/storage.ts';
import {
  createTestApp,
  FUZZ_SETTINGS,
  signUpOwner,
  TEST_CELL,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF } from '../../testing/test-files.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { DATABASE_ENTRY, END_ENTRY, FILES_PREFIX, OperatorError, type Ending } from './archive.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { bytesOf, contents, emptyTarget } from './test-fixture.ts';

type Entry = { name: string; data: Buffer };
type Variant = (entries: Entry[]) => Entry[];

let source: TestApp;
let good: Entry[];
let target: Awaited<ReturnType<typeof emptyTarget>>;
let opened: Awaited<ReturnType<Awaited<ReturnType<typeof emptyTarget>>['open']>>;
let baseline: Awaited<ReturnType<typeof contents>>;
let tables: string[];
/** A file beside the target's store that a key like `../outside.txt` would reach, and one a program would make. */
let outside: string;
let pwned: string;

beforeAll(async () => {
  source = await createTestApp({ rateLimits: NO_RATE_LIMITS });
  await signUpOwner(source);
  const upload = await source.app.inject({ method: 'POST', url: '/api/profile', ...multipart('a.pdf', PDF) });
  expect(upload.statusCode).toBe(200);
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  await writeBackup({ db: source.app.db, storage: source.app.storage, out });
  good = await entriesOf(Buffer.concat(chunks));
  target = await emptyTarget();
  opened = await target.open();
  await migrate(opened.db);
  baseline = await contents(opened.db);
  tables = Object.keys(baseline);
  outside = join(target.config.dataDir, 'outside.txt');
  pwned = join(target.config.dataDir, 'pwned');
  await writeFile(outside, 'keep');
}, 120_000);

afterAll(async () => {
  await opened?.close();
  await target?.drop();
  await source?.close();
});

async function entriesOf(archive: Buffer): Promise<Entry[]> {
  const entries: Entry[] = [];
  const extract = tar.extract();
  Readable.from([archive]).pipe(extract);
  for await (const entry of extract) entries.push({ name: entry.header.name, data: await bytesOf(entry) });
  return entries;
}

async function packed(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const { name, data } of entries) pack.entry({ name, size: data.length }, data);
  pack.finalize();
  return bytesOf(pack);
}

const linesOf = (entries: Entry[]) =>
  (entries.find((e) => e.name === DATABASE_ENTRY)?.data ?? Buffer.alloc(0)).toString('utf8').split('\n');
const withLines = (entries: Entry[], lines: string[]) =>
  entries.map((e) => (e.name === DATABASE_ENTRY ? { ...e, data: Buffer.from(lines.join('\n')) } : e));
const insertsOf = (lines: string[]) =>
  lines.flatMap((line, i) => (line.startsWith('insert into ') ? [i] : []));
const endingOf = (entries: Entry[]) =>
  JSON.parse(entries.find((e) => e.name === END_ENTRY)?.data.toString('utf8') ?? '{}') as Ending;
const withEnding = (entries: Entry[], ending: Ending) =>
  entries.map((e) => (e.name === END_ENTRY ? { ...e, data: Buffer.from(JSON.stringify(ending)) } : e));

/** The upload rows' line with its JSON rows changed by `change`, written back as the backup writes a literal. */
function withUploadRows(entries: Entry[], change: (rows: Record<string, unknown>[]) => void): Entry[] {
  const lines = linesOf(entries);
  const i = lines.findIndex((line) => line.startsWith('insert into "uploads"'));
  const line = lines[i] ?? '';
  const start = line.indexOf(", '") + 3;
  const rows = JSON.parse(line.slice(start, -3).replaceAll("''", "'")) as Record<string, unknown>[];
  change(rows);
  lines[i] = `${line.slice(0, start)}${JSON.stringify(rows).replaceAll("'", "''")}');`;
  return withLines(entries, lines);
}

/**
 * A restore of `entries` is refused as the operator's error, and the target and the host are as they were.
 * Returns the refusal's message.
 */
async function expectRefused(entries: Entry[]): Promise<string> {
  const refused = await restoreBackup({
    db: opened.db,
    storage: opened.storage,
    source: Readable.from([await packed(entries)]),
  }).then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(OperatorError);
  expect(await contents(opened.db)).toEqual(baseline);
  const keys: string[] = [];
  for await (const key of opened.storage.keysWrittenBefore(new Date(Date.now() + 60_000))) keys.push(key);
  expect(keys).toEqual([]);
  expect(await readFile(outside, 'utf8')).toBe('keep');
  expect(existsSync(pwned)).toBe(false);
  return (refused as Error).message;
}

const statementAt =
  (statement: string, at: number): Variant =>
  (entries) => {
    const lines = linesOf(entries);
    lines.splice(at % (lines.length + 1), 0, statement);
    return withLines(entries, lines);
  };

/** An upload row naming its file by `key`, its file listed as lost: no file entry would ever check the key. */
const keyOfLostFile =
  (key: string): Variant =>
  (entries) => {
    let uploadId = '';
    const changed = withUploadRows(entries, (rows) => {
      for (const row of rows) {
        row.storage_key = key;
        uploadId = String(row.id);
      }
    });
    return withEnding(
      changed.filter((e) => !e.name.startsWith(FILES_PREFIX)),
      { files: 0, missing: [{ uploadId, key }] },
    );
  };

const HOSTILE_KEYS = [
  '../../etc/passwd',
  '../outside.txt',
  '/etc/passwd',
  '..',
  '.',
  '',
  'a/b',
  'a\\b',
  'x'.repeat(129),
  'key.part',
  '%2e%2e%2fpasswd',
];

describe(`restoring a crafted backup (${TEST_CELL})`, () => {
  it('refuses a DROP TABLE among the rows, and leaves the target as it was', async () => {
    expect(await expectRefused(statementAt('drop table accounts;', 3)(good))).toMatch(
      /^The backup's database\.sql holds a statement this version does not load \(statement \d+, .*\): "drop table accounts;"\. Nothing was restored\.$/,
    );
  });

  it('refuses COPY … TO PROGRAM, and no program runs', async () => {
    expect(await expectRefused(statementAt(`copy (select 1) to program 'touch ${pwned}';`, 3)(good))).toMatch(
      /does not load \(statement \d+, .*\): "copy \(select 1\) to program/,
    );
  });

  it('refuses an upload row whose storage key is ../../etc/passwd, even when its file is listed as lost', async () => {
    expect(await expectRefused(keyOfLostFile('../../etc/passwd')(good))).toMatch(
      /^The backup's upload "[\w-]+" names its file "\.\.\/\.\.\/etc\/passwd", which is not a storage key\. Nothing was restored\.$/,
    );
  });

  it('refuses every generated hostile variant of a real backup, changing nothing (generated)', async () => {
    const hostileKey = fc.oneof(
      fc.constantFrom(...HOSTILE_KEYS),
      fc.string({ maxLength: 40 }).filter((key) => !FILE_KEY.test(key)),
    );
    const statement = fc.oneof(
      fc.constantFrom(
        'drop table accounts;',
        `copy (select 1) to program 'touch ${pwned}';`,
        'create table intruder (x int);',
        "update app_settings set value = 'stolen';",
        "insert into schema_migrations (name) values ('999-intruder.sql');",
        'alter table accounts disable trigger all;',
        "create function intruder() returns int language sql as 'select 1';",
        'select pg_sleep(0);',
        'commit;',
      ),
      // Anything else a line may hold (not a comment, which a restore skips).
      fc
        .string({ maxLength: 80 })
        .map((s) => `${s.replace(/[\r\n]/g, ' ')};`)
        .filter((s) => !s.trimStart().startsWith('--')),
    );
    const insertLine = fc.nat();
    const variant: fc.Arbitrary<Variant> = fc.oneof(
      fc.tuple(statement, fc.nat()).map(([s, at]) => statementAt(s, at)),
      hostileKey.map(keyOfLostFile),
      // The row is fine; the end lists a lost file under a hostile key.
      hostileKey.map((key): Variant => (entries) => {
        const ending = endingOf(entries);
        return withEnding(entries, { ...ending, missing: [...ending.missing, { uploadId: 'x', key }] });
      }),
      // A file entry under a hostile name.
      hostileKey.map(
        (key): Variant =>
          (entries) =>
            entries.map((e) => (e.name.startsWith(FILES_PREFIX) ? { ...e, name: FILES_PREFIX + key } : e)),
      ),
      // Rows for a table the schema does not have, or should never be loaded into.
      fc
        .tuple(
          fc.oneof(
            fc.constantFrom('schema_migrations', 'pg_authid', 'intruder'),
            fc.stringMatching(/^[a-z_]{1,12}$/),
          ),
          insertLine,
        )
        .filter(([name]) => !tables.includes(name))
        .map(([name, n]): Variant => (entries) => {
          const lines = linesOf(entries);
          const i = insertsOf(lines)[n % insertsOf(lines).length] ?? 0;
          const table = /^insert into ("\w+")/.exec(lines[i] ?? '')?.[1] ?? '';
          lines[i] = (lines[i] ?? '')
            .replaceAll(`into ${table}`, `into "${name}"`)
            .replaceAll(`null::${table}`, `null::"${name}"`);
          return withLines(entries, lines);
        }),
      // A column the table does not have.
      insertLine.map((n): Variant => (entries) => {
        const lines = linesOf(entries);
        const i = insertsOf(lines)[n % insertsOf(lines).length] ?? 0;
        lines[i] = (lines[i] ?? '')
          .replace(/^(insert into "\w+" \()/, '$1"intruder", ')
          .replace(') select ', ') select "intruder", ');
        return withLines(entries, lines);
      }),
      // SQL smuggled into or after a literal.
      fc
        .tuple(
          fc.constantFrom(
            "'); drop table accounts; --",
            "' || (select pg_sleep(0))::text || '",
            "'::json); create table intruder (x int); select ('",
          ),
          insertLine,
          fc.double({ min: 0, max: 1, noNaN: true }),
        )
        .map(([payload, n, where]): Variant => (entries) => {
          const lines = linesOf(entries);
          const i = insertsOf(lines)[n % insertsOf(lines).length] ?? 0;
          const line = lines[i] ?? '';
          const start = line.indexOf(", '") + 3;
          const at = start + Math.floor(where * (line.length - 3 - start));
          lines[i] = `${line.slice(0, at)}${payload}${line.slice(at)}`;
          return withLines(entries, lines);
        }),
      fc.constantFrom(' drop table accounts;', ' create table intruder (x int);').chain((tail) =>
        insertLine.map((n): Variant => (entries) => {
          const lines = linesOf(entries);
          const i = insertsOf(lines)[n % insertsOf(lines).length] ?? 0;
          lines[i] = `${lines[i] ?? ''}${tail}`;
          return withLines(entries, lines);
        }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(variant, async (make) => {
        await expectRefused(make(good));
      }),
      // FUZZ_RUNS=1000 for a deep run, as src/server/fuzz.test.ts.
      { numRuns: Number(FUZZ_SETTINGS.runs ?? 50) },
    );
  }, 240_000);

  it('still restores the untouched backup', async () => {
    const restored = await restoreBackup({
      db: opened.db,
      storage: opened.storage,
      source: Readable.from([await packed(good)]),
    });
    expect(restored.files).toBe(1);
    expect((await contents(opened.db)).uploads?.rows).toBe(1);
  });
});
