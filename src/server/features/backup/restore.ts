import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Database, Queryable } from '../../db/database.ts';
import { appVersion, migrate, migrationNames } from '../../db/migrate.ts';
import { pairRestored } from '../../storage/instance-marker.ts';
import type { Storage } from '../../storage/storage.ts';
import {
  cutShort,
  DATABASE_ENTRY,
  END_ENTRY,
  EndingSchema,
  FILES_PREFIX,
  MANIFEST_ENTRY,
  ManifestSchema,
  OperatorError,
  STORAGE_KEY,
  type Manifest,
  type Progress,
} from './archive.ts';
import { countUnnamed, filesInPlaceCheck, refuseAnotherInstance } from './files-in-place.ts';
import { checkStorageKey, loadRows } from './load-rows.ts';
import { rowsHeld } from './tables.ts';

/** The most a manifest or end entry may hold: they are a few hundred bytes. */
const SMALL_ENTRY_BYTES = 10 * 1024 * 1024;

/**
 * Restores a backup (backup.ts) from `source` into `db` and `storage`, which must hold no data: an instance's
 * server settings alone (it was started once) count as empty. All or nothing: the rows are loaded in one
 * transaction that commits only after every file is stored and checked against its row; on any failure the files
 * written so far are removed again. Then the migrations this version has and the backup had not are applied.
 * `filesInPlace`: the files are already in `storage` (a move to PostgreSQL keeping the same disk, a restore of a lost
 * database beside its intact store): each must be there with its row's size, and the store's instance marker agree
 * with the backup's or be adopted; nothing stored is written or removed. `unnamed`: stored files no restored upload
 * names (uploaded after the backup).
 */
export async function restoreBackup(options: {
  /** The target, or how to open it: opened only once the archive has proved to be a backup this version reads. */
  db: Database | (() => Promise<Database>);
  storage: Storage;
  source: Readable;
  filesInPlace?: boolean;
  onManifest?: (manifest: Manifest) => void;
  onProgress?: (progress: Progress) => void;
}): Promise<{ manifest: Manifest; files: number; migrated: string[]; unnamed: number }> {
  const { storage } = options;
  const inPlace = options.filesInPlace === true ? filesInPlaceCheck(storage) : null;
  const extract = tar.extract();
  const reading = pipeline(options.source, extract);
  // The iteration below sees the failure (extract is destroyed with it); kept to say what broke, and so that it
  // does not go unhandled.
  let readFailure: unknown;
  reading.catch((error: unknown) => {
    readFailure ??= error;
  });
  // On Node 24 an entry being read fails with the archive's error before the pipeline settles: noted here at once.
  extract.on('error', (error: unknown) => {
    readFailure ??= error;
  });
  const entries = extract[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await entries.next().catch((error: unknown) => {
      throw unreadable(error);
    });
    // tar-stream's entries are streamx streams: read as Node streams by everything below.
    return done ? null : { name: value.header.name, content: Readable.from(value) };
  };
  const written: string[] = [];
  let named = new Set<string>();
  // The store's instance marker before the restore replaced it, put back if the restore then fails.
  let markerBefore: { before: string | null } | undefined;
  try {
    const first = await next();
    if (first?.name !== MANIFEST_ENTRY)
      throw new OperatorError(
        'This is not an Easy Form backup: it does not start with easy-form-backup.json.',
      );
    const parsed = ManifestSchema.safeParse(JSON.parse(await readSmall(first.content)));
    if (!parsed.success)
      throw new OperatorError(
        'This is not an Easy Form backup this version can read: its manifest is not valid.',
      );
    const manifest = parsed.data;
    options.onManifest?.(manifest);
    const db = typeof options.db === 'function' ? await options.db() : options.db;
    await refuseUnlessRestorable(db, storage, manifest, inPlace !== null);
    await migrate(db, { until: manifest.schema.at(-1) });

    const progress: Progress = { phase: 'database', rows: 0, files: 0, fileBytes: 0 };
    const tell = () => options.onProgress?.({ ...progress });
    await db.transaction(async (tx) => {
      // The backup's settings (the key that signs file links among them) replace those of the empty instance.
      await tx.query('delete from app_settings');
      const sql = await next();
      if (sql?.name !== DATABASE_ENTRY) throw cutShort(`${DATABASE_ENTRY} is missing`);
      await loadRows(tx, sql.content);
      const held = await rowsHeldAll(tx);
      for (const [table, count] of Object.entries(manifest.rows)) {
        if ((held[table] ?? 0) !== count)
          throw cutShort(`${table} has ${held[table] ?? 0} rows after loading, the manifest says ${count}`);
      }
      const expected = new Map(
        (
          await tx.query<{ key: string; size: string }>(
            'select storage_key as key, size_bytes::text as size from uploads',
          )
        ).map((r) => [r.key, Number(r.size)]),
      );
      named = new Set(expected.keys());
      if (inPlace) await refuseAnotherInstance(tx, storage);

      progress.rows = Object.values(held).reduce((sum, n) => sum + n, 0);
      progress.phase = 'files';
      tell();
      for (;;) {
        const entry = await next();
        if (!entry) throw cutShort(`${END_ENTRY} is missing after ${progress.files} files`);
        const name = entry.name;
        if (name === END_ENTRY) {
          const read = EndingSchema.safeParse(JSON.parse(await readSmall(entry.content)));
          if (!read.success) throw cutShort(`${END_ENTRY} is not valid`);
          const ending = read.data;
          for (const lost of ending.missing) checkStorageKey({ id: lost.uploadId, storage_key: lost.key });
          const missing = new Set(ending.missing.map((m) => m.key));
          const absent = [...expected.keys()].filter((key) => !missing.has(key));
          if (ending.files !== progress.files || absent.length > 0)
            throw cutShort(`${absent.length} of the files the uploads name are not in it`);
          // Read to the archive's end, so the extraction finishes.
          if (await next()) throw new OperatorError(`The backup holds entries after ${END_ENTRY}.`);
          inPlace?.refuseUnlessAllMatched();
          break;
        }
        const key = name.slice(FILES_PREFIX.length);
        if (!name.startsWith(FILES_PREFIX) || !STORAGE_KEY.test(key))
          throw new OperatorError(
            `The backup holds an entry this version does not know: ${name.slice(0, 100)}`,
          );
        const size = expected.get(key);
        if (size === undefined)
          throw new OperatorError(`The backup holds file ${key}, which no upload names.`);
        if (inPlace) {
          entry.content.resume();
          await inPlace.check(key, size);
        } else {
          written.push(key);
          const stored = await storage.put(key, entry.content);
          if (stored !== size)
            throw new OperatorError(`File ${key} has ${stored} bytes; its upload says ${size}.`);
        }
        expected.delete(key);
        progress.files += 1;
        progress.fileBytes += size;
        tell();
      }
      // The restored database and its store are one instance's: its sweep may then run (docs/decisions/036).
      markerBefore = await pairRestored(tx, storage);
    });
    const migrated = await migrate(db);
    await reading;
    const unnamed = inPlace ? await countUnnamed(storage, named) : 0;
    return { manifest, files: progress.files, migrated, unnamed };
  } catch (error) {
    extract.destroy();
    await Promise.all(written.map((key) => storage.remove(key).catch(() => undefined)));
    const before = markerBefore?.before;
    if (before) await storage.writeMarker(before).catch(() => undefined);
    if (error instanceof SyntaxError) throw new OperatorError(`The backup is damaged: ${error.message}`);
    // Reading the archive failed (cut short, not gzip or tar after all, a folder): whatever broke with it.
    if (readFailure !== undefined && !(error instanceof OperatorError)) throw unreadable(readFailure);
    throw error;
  }
}

/** The archive could not be read to its end: the file's fault, said as such, not a stack. */
function unreadable(error: unknown): OperatorError {
  if (error instanceof OperatorError) return error;
  const why = error instanceof Error ? error.message : String(error);
  return new OperatorError(
    `This backup cannot be read to its end (${why}): it is cut short, damaged, or not an Easy Form backup. Nothing was restored.`,
  );
}

/** Refuses a newer schema than this version knows, a database that holds data, and a store that holds files. */
async function refuseUnlessRestorable(
  db: Database,
  storage: Storage,
  manifest: Manifest,
  filesInPlace: boolean,
): Promise<void> {
  const known = await migrationNames();
  const unknown = manifest.schema.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new OperatorError(
      `This backup was written by Easy Form ${manifest.appVersion} (schema ${manifest.schema.at(-1)}); this is ` +
        `Easy Form ${await appVersion()}, which knows the schema up to ${known.at(-1)}. Restore it with Easy Form ` +
        `${manifest.appVersion} or later.`,
    );
  }
  const [table] = await db.query<{ present: boolean }>(
    "select to_regclass('schema_migrations') is not null as present",
  );
  if (table?.present) {
    const held = await rowsHeld(db);
    const counts = Object.entries(held).map(([name, n]) => `${n} ${name}`);
    if (counts.length > 0) {
      throw new OperatorError(
        `The target database is not empty (it holds ${counts.slice(0, 4).join(', ')}${counts.length > 4 ? ', …' : ''}). ` +
          'Restore into an empty DATA_DIR or an empty database: nothing is overwritten.',
      );
    }
    const applied = await db.query<{ name: string }>('select name from schema_migrations order by name');
    const last = manifest.schema.at(-1) ?? '';
    const ahead = applied.filter((r) => r.name > last);
    if (ahead.length > 0) {
      throw new OperatorError(
        `The target database already has a newer schema (${ahead.at(-1)?.name}) than the backup (${last}). ` +
          'Restore into a database no Easy Form server has started on (e.g. a new one from createdb).',
      );
    }
  }
  if (!filesInPlace) {
    for await (const key of storage.keysWrittenBefore(new Date(Date.now() + 86_400_000))) {
      throw new OperatorError(
        `The target file storage is not empty (it holds ${key}, among others): restore into empty storage, or, ` +
          "where only the database was lost and these are the backup's own files, add --keep-files.",
      );
    }
  }
}

async function readSmall(entry: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry) {
    size += (chunk as Buffer).length;
    if (size > SMALL_ENTRY_BYTES)
      throw new OperatorError('The backup is damaged: a manifest entry is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function rowsHeldAll(tx: Queryable): Promise<Record<string, number>> {
  const held = await rowsHeld(tx);
  const [settings] = await tx.query<{ n: number }>('select count(*)::int as n from app_settings');
  return { ...held, app_settings: settings?.n ?? 0 };
}
