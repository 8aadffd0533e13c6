// `npm run restore -- FILE` and `npm run move-to-postgres` (docs/operations.md).
import { createReadStream } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { openDatabase, type Database } from '../../db/database.ts';
import type { Config } from '../../runtime/config.ts';
import { openStorage } from '../../storage/open-storage.ts';
import { createDiskStorage, type Storage } from '../../storage/storage.ts';
import { OperatorError, type Manifest } from './archive.ts';
import { isServing } from './backup-socket.ts';
import { writeBackup } from './backup.ts';
import { describeProgress, openEmbedded, progressLine, summary } from './command-helpers.ts';
import { restoreBackup } from './restore.ts';

/** `source` uncompressed, whether or not it was gzipped: its first two bytes tell. */
function uncompressed(source: Readable): Readable {
  async function* chunks(): AsyncGenerator<Buffer> {
    const it = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const first = await it.next();
    if (first.done) return;
    const head = first.value;
    async function* all(): AsyncGenerator<Buffer> {
      yield head;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    }
    if (head[0] === 0x1f && head[1] === 0x8b) yield* Readable.from(all()).pipe(createGunzip());
    else yield* all();
  }
  return Readable.from(chunks());
}

async function archiveSource(file: string): Promise<Readable> {
  if (file === '-') return uncompressed(process.stdin);
  await access(file).catch((error: NodeJS.ErrnoException) => {
    throw new OperatorError(
      `Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
    );
  });
  if ((await stat(file)).isDirectory())
    throw new OperatorError(`${file} is a folder: name the backup file in it`);
  return uncompressed(createReadStream(file));
}

/** `keepFiles`: only the database was lost; the files stay where they are, checked against the backup's rows. */
export async function restore(config: Config, file: string, { keepFiles = false } = {}): Promise<void> {
  const started = Date.now();
  const source = await archiveSource(file);
  // Opened once the file has proved to be a backup: a wrong file creates no database in an empty DATA_DIR, and is
  // refused without the seconds a new embedded database takes to create.
  let db: Database | undefined;
  const open = async () =>
    (db = config.databaseUrl
      ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
      : await openEmbedded(
          config,
          'Stop the server first: a restore needs the data directory to itself',
          false,
        ));
  const line = progressLine();
  try {
    const storage = await openStorage(config, 'unused: a restore signs nothing');
    let manifest: Manifest | null = null;
    const result = await restoreBackup({
      db: open,
      storage,
      source,
      filesInPlace: keepFiles,
      onManifest: (m) => {
        manifest = m;
        console.error(`Restoring a backup of Easy Form ${m.appVersion} taken ${m.createdAt}: ${summary(m)}.`);
      },
      onProgress: (p) => line.show(describeProgress('Restoring', p, manifest)),
    });
    line.done();
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const upgraded =
      result.migrated.length > 0 ? ` Then upgraded its schema: ${result.migrated.join(', ')}.` : '';
    const beside = keepFiles ? ', beside the files already stored (each checked)' : '';
    console.error(`Restored ${summary(result.manifest)}${beside} in ${seconds} s.${upgraded}`);
    if (result.unnamed > 0)
      console.error(
        `⚠ ${result.unnamed} stored files are named by no upload of this backup (uploaded after it was taken): ` +
          'the hourly sweep moves them into quarantine/, where they are kept 7 days (docs/operations.md).',
      );
  } finally {
    line.done();
    await db?.close();
  }
}

export async function moveToPostgres(config: Config): Promise<void> {
  const started = Date.now();
  if (!config.databaseUrl?.startsWith('postgres'))
    throw new OperatorError(
      'Set DATABASE_URL to the empty PostgreSQL database to move into (e.g. DATABASE_URL=postgres://user@host/easyform).',
    );
  if (await isServing(config.dataDir))
    throw new OperatorError(
      `Stop the server on ${config.dataDir} first: responses arriving during the move would be left behind.`,
    );
  const source = await openEmbedded(config, 'Stop the server first');
  const target = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const line = progressLine();
  try {
    // Files on the local disk stay where they are unless STORAGE_URL names a bucket to copy them into.
    const fromStorage: Storage = await createDiskStorage(config.dataDir, 'unused');
    const toStorage = config.storage ? await openStorage(config, 'unused') : fromStorage;
    const pipe = new PassThrough();
    let manifest: Manifest | null = null;
    const [written, restored] = await Promise.allSettled([
      writeBackup({ db: source, storage: fromStorage, out: pipe }).catch((error: unknown) => {
        pipe.destroy(error as Error);
        throw error;
      }),
      restoreBackup({
        db: target,
        storage: toStorage,
        source: pipe,
        filesInPlace: toStorage === fromStorage,
        onManifest: (m) => (manifest = m),
        onProgress: (p) => line.show(describeProgress('Moving', p, manifest)),
      }).catch((error: unknown) => {
        pipe.destroy();
        throw error;
      }),
    ]);
    line.done();
    if (restored.status === 'rejected') throw restored.reason;
    if (written.status === 'rejected') throw written.reason;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.error(
      `Moved ${summary(restored.value.manifest)} into PostgreSQL in ${seconds} s` +
        `${config.storage ? ', the files into STORAGE_URL' : '; the files stay in DATA_DIR/uploads'}. ` +
        `Start the server with this DATABASE_URL; the embedded database in ${config.dataDir}/pgdata is left as it was.`,
    );
  } finally {
    line.done();
    await source.close();
    await target.close();
  }
}
