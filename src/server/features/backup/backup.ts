import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Database, Queryable } from '../../db/database.ts';
import { appVersion } from '../../db/migrate.ts';
import type { Storage } from '../../storage/storage.ts';
import {
  DATABASE_ENTRY,
  END_ENTRY,
  FILES_PREFIX,
  FORMAT,
  MANIFEST_ENTRY,
  type Ending,
  type FileRef,
  type Manifest,
  OperatorError,
  type Progress,
} from './archive.ts';
import { holdingFileRemovals } from './removal-hold.ts';
import { ident, tablesInLoadOrder } from './tables.ts';

const ROWS_PER_FETCH = 200;
/** A statement's JSON grows to about this before it is written: big enough to load fast, small enough to parse. */
const STATEMENT_BYTES = 1024 * 1024;

/**
 * Writes a backup of `db` and the files its upload rows name to `out` (docs/decisions/029-backup-and-restore.md).
 * The rows come from one snapshot; the files are copied after it while no process removes one, so every
 * submission in the archive has its files and every file in it belongs to a row. On the embedded engine the
 * database is busy only while its rows are read (other queries wait, none fails); copying files does not hold it.
 * `onReady` is told the manifest and the archive's size before the first byte is written.
 */
export async function writeBackup(options: {
  db: Database;
  storage: Storage;
  out: Writable;
  onReady?: (manifest: Manifest, archiveBytes: number) => void;
  onProgress?: (progress: Progress) => void;
}): Promise<{ manifest: Manifest; ending: Ending }> {
  const { db, storage, out } = options;
  const progress: Progress = { phase: 'database', rows: 0, files: 0, fileBytes: 0 };
  const tell = () => options.onProgress?.({ ...progress });
  const dir = await mkdtemp(join(tmpdir(), 'easyform-backup-'));
  try {
    return await holdingFileRemovals(db, async () => {
      const sqlPath = join(dir, DATABASE_ENTRY);
      const dumped = await db.transaction(async (tx) => {
        // One snapshot for every table (the first statement fixes it), read-only.
        await tx.query('set transaction isolation level repeatable read, read only');
        return dumpRows(tx, sqlPath, (rows) => {
          progress.rows = rows;
          tell();
        });
      });
      const manifest: Manifest = {
        format: FORMAT,
        app: 'easy-form',
        appVersion: await appVersion(),
        schema: dumped.schema,
        engine: db.kind,
        createdAt: new Date().toISOString(),
        rows: dumped.rows,
        files: dumped.files.length,
        fileBytes: dumped.files.reduce((sum, f) => sum + f.size, 0),
      };
      const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
      const sqlBytes = (await stat(sqlPath)).size;
      // Each entry: a 512-byte header and its content padded to 512; the archive ends with two empty blocks.
      const entryBytes = (size: number) => 512 + Math.ceil(size / 512) * 512;
      const archiveBytes =
        entryBytes(manifestBytes.length) +
        entryBytes(sqlBytes) +
        dumped.files.reduce((sum, f) => sum + entryBytes(f.size), 0) +
        entryBytes(4096) +
        1024;
      options.onReady?.(manifest, archiveBytes);

      progress.phase = 'files';
      tell();
      const pack = tar.pack();
      const written = pipeline(pack, out);
      // A failing destination ends the backup; the entries being added see the pack destroyed.
      written.catch(() => pack.destroy());
      await addEntry(pack, MANIFEST_ENTRY, manifestBytes.length, manifestBytes);
      await addEntry(pack, DATABASE_ENTRY, sqlBytes, createReadStream(sqlPath));
      const ending: Ending = { files: 0, missing: [] };
      for (const file of dumped.files) {
        const source = await storage.open(file.key);
        if (!source) {
          ending.missing.push({ uploadId: file.uploadId, key: file.key });
          continue;
        }
        await addEntry(pack, FILES_PREFIX + file.key, file.size, source, file);
        ending.files += 1;
        progress.files += 1;
        progress.fileBytes += file.size;
        tell();
      }
      const endBytes = Buffer.from(`${JSON.stringify(ending)}\n`);
      await addEntry(pack, END_ENTRY, endBytes.length, endBytes);
      pack.finalize();
      await written;
      return { manifest, ending };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Adds one entry of `size` bytes; a file whose bytes differ from its row's size fails the backup, naming it. */
async function addEntry(
  pack: tar.Pack,
  name: string,
  size: number,
  content: Buffer | Readable,
  file?: FileRef,
): Promise<void> {
  const header = { name, size, mode: 0o600, mtime: new Date() };
  if (Buffer.isBuffer(content)) {
    await new Promise<void>((resolve, reject) => {
      const sink = pack.entry(header, content, (error) => (error ? reject(error) : resolve()));
      // Its failure reaches the callback; without a listener the same error would also be thrown as an event.
      sink.on('error', () => undefined);
    });
    return;
  }
  // tar-stream's entry is a streamx stream: fed by hand, with its backpressure, rather than through pipeline().
  let entry: Writable | undefined;
  const added = new Promise<void>((resolve, reject) => {
    entry = pack.entry(header, (error) => (error ? reject(error) : resolve())) as unknown as Writable;
  });
  // Awaited at the end; if the pack fails first, the loop below learns it from the write instead.
  added.catch(() => undefined);
  // A pack already ended (the backup's client went away) refuses the entry: `added` holds why.
  if (!entry) return added;
  entry.on('error', () => undefined);
  let seen = 0;
  try {
    for await (const chunk of content) {
      seen += (chunk as Buffer).length;
      if (seen > size) throw sizeMismatch(file, size, `more than ${size}`);
      if (!entry!.write(chunk)) await once(entry!, 'drain');
    }
    if (seen !== size) throw sizeMismatch(file, size, String(seen));
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  }
  entry!.end();
  await added;
}

const sizeMismatch = (file: FileRef | undefined, size: number, seen: string) =>
  new Error(
    file
      ? `File ${file.key} (upload ${file.uploadId}) has ${seen} bytes in storage, but its row says ${size}: ` +
          'it changed after it was stored'
      : `${size} bytes expected, ${seen} read`,
  );

/**
 * Writes every row as `insert … select … from json_populate_recordset(…)` statements, one a line, then one `setval`
 * a sequence: plain SQL, read by psql as well as by the restore. Returns the schema, row counts and the files named.
 */
async function dumpRows(
  tx: Queryable,
  path: string,
  onRows: (rows: number) => void,
): Promise<{ schema: string[]; rows: Record<string, number>; files: FileRef[] }> {
  const [present] = await tx.query<{ yes: boolean }>(
    "select to_regclass('schema_migrations') is not null as yes",
  );
  if (!present?.yes)
    throw new OperatorError('This database has no Easy Form schema: there is nothing to back up.');
  const schema = (await tx.query<{ name: string }>('select name from schema_migrations order by name')).map(
    (r) => r.name,
  );
  const tables = await tablesInLoadOrder(tx);
  const sql = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const write = async (text: string) => {
    if (!sql.write(text)) await once(sql, 'drain');
  };
  const rows: Record<string, number> = {};
  let total = 0;
  try {
    await write(
      `-- Easy Form backup: every row of the schema up to ${schema.at(-1) ?? 'none'}, as plain SQL.\n` +
        '-- `npm run restore` loads it (with the files); `psql --single-transaction -f` can read it into an empty\n' +
        '-- database of the same schema.\n' +
        "set client_encoding = 'UTF8';\nset standard_conforming_strings = on;\n" +
        // The rows are loaded as they were: the app's own triggers (a form's version bumped when a question is
        // added) must not run again. Foreign keys stay checked.
        tables.map((t) => `alter table ${ident(t.name)} disable trigger user;\n`).join(''),
    );
    for (const table of tables) {
      const name = ident(table.name);
      const columns = table.columns.map(ident).join(', ');
      let batch: string[] = [];
      let batchBytes = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const json = `[${batch.join(',')}]`.replaceAll("'", "''");
        await write(
          `insert into ${name} (${columns}) select ${columns} from json_populate_recordset(null::${name}, '${json}');\n`,
        );
        batch = [];
        batchBytes = 0;
      };
      let count = 0;
      await tx.query(
        `declare backup_rows no scroll cursor for select row_to_json(t)::text as j from ${name} t`,
      );
      for (;;) {
        const page = await tx.query<{ j: string }>(`fetch ${ROWS_PER_FETCH} from backup_rows`);
        for (const { j } of page) {
          batch.push(j);
          batchBytes += j.length;
          if (batchBytes >= STATEMENT_BYTES) await flush();
        }
        count += page.length;
        total += page.length;
        onRows(total);
        if (page.length < ROWS_PER_FETCH) break;
      }
      await tx.query('close backup_rows');
      rows[table.name] = count;
      await flush();
      for (const column of table.serial) {
        const c = ident(column);
        await write(
          `select setval(pg_get_serial_sequence('${name}', '${column}'), coalesce(max(${c}), 0) + 1, false) from ${name};\n`,
        );
      }
    }
    await write(tables.map((t) => `alter table ${ident(t.name)} enable trigger user;\n`).join(''));
    sql.end();
    await once(sql, 'close');
  } catch (error) {
    sql.destroy();
    throw error;
  }
  const files = (
    await tx.query<{ id: string; key: string; size: string }>(
      'select id::text, storage_key as key, size_bytes::text as size from uploads order by storage_key',
    )
  ).map((r) => ({ uploadId: r.id, key: r.key, size: Number(r.size) }));
  return { schema, rows, files };
}
