// `npm run backup -- FILE`, `npm run restore -- FILE` and `npm run move-to-postgres` (docs/operations.md). They read
// the same environment as the server (DATA_DIR, DATABASE_URL, STORAGE_URL); messages go to stderr, so `-` can stand
// for stdout or stdin.
import { createReadStream } from 'node:fs';
import { access, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PassThrough, Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { ConfigError, loadConfig, type Config } from '../config.ts';
import { DatabaseInUseError, openDatabase, type Database } from '../db/database.ts';
import { SchemaTooNewError } from '../db/migrate.ts';
import { openStorage } from '../storage/open-storage.ts';
import { createDiskStorage, type Storage } from '../storage/storage.ts';
import { OperatorError, type Manifest, type Progress } from './archive.ts';
import { isServing, requestBackup } from './backup-socket.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';

const USAGE = `Usage:
  npm run backup -- FILE              write a backup of this instance (FILE.gz: compressed; -: to stdout)
  npm run restore -- FILE             restore a backup into this empty instance (-: from stdin)
  npm run move-to-postgres            copy this embedded instance into the empty PostgreSQL of DATABASE_URL
They use the server's settings: DATA_DIR, DATABASE_URL, STORAGE_URL (docs/operations.md).`;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const count = (n: number) => n.toLocaleString('en');

/** One line on the terminal rewritten in place; on a pipe or a log, a line every few seconds. */
function progressLine(): { show(text: string): void; done(): void } {
  let last = 0;
  const tty = process.stderr.isTTY;
  return {
    show(text) {
      const now = Date.now();
      if (now - last < (tty ? 200 : 5_000)) return;
      last = now;
      process.stderr.write(tty ? `\r\x1b[K${text}` : `${text}\n`);
    },
    done() {
      if (tty && last > 0) process.stderr.write('\r\x1b[K');
    },
  };
}

const describeProgress = (
  verb: string,
  p: Progress,
  manifest: Pick<Manifest, 'files' | 'fileBytes'> | null,
) =>
  p.phase === 'database'
    ? `${verb}: database, ${count(p.rows)} rows…`
    : `${verb}: files, ${count(p.files)}${manifest ? ` of ${count(manifest.files)}` : ''} (${mb(p.fileBytes)}${
        manifest ? ` of ${mb(manifest.fileBytes)}` : ''
      })…`;

const summary = (m: Manifest) =>
  `${count(m.rows.accounts ?? 0)} accounts, ${count(m.rows.forms ?? 0)} forms, ` +
  `${count(m.rows.submissions ?? 0)} submissions, ${count(m.files)} files (${mb(m.fileBytes)})`;

/** The embedded database of DATA_DIR; `existing`: refuse, rather than create one, where there is none. */
async function openEmbedded(config: Config, why: string, existing = true): Promise<Database> {
  if (
    existing &&
    !(await access(join(config.dataDir, 'pgdata', 'PG_VERSION')).then(
      () => true,
      () => false,
    ))
  )
    throw new OperatorError(
      `There is no Easy Form database in ${config.dataDir} (DATA_DIR): nothing to copy.`,
    );
  try {
    return await openDatabase({ databaseUrl: undefined, dataDir: config.dataDir, lockRetries: 0 });
  } catch (error) {
    if (error instanceof DatabaseInUseError) throw new OperatorError(`${why}: ${error.message}`);
    throw error;
  }
}

async function backup(config: Config, file: string): Promise<void> {
  const started = Date.now();
  const toStdout = file === '-';
  const partial = `${file}.partial`;
  const destination: Writable = toStdout ? process.stdout : await openPartial(partial, file);
  const stages: Transform[] = file.endsWith('.gz') ? [createGzip()] : [];
  const line = progressLine();
  try {
    let manifest: Manifest | undefined;
    let missing = 0;
    const served = config.databaseUrl ? null : await requestBackup(config.dataDir);
    if (served) {
      // The running server writes it; its size came first, so the progress is by bytes.
      if (served.statusCode !== 200) {
        const message = (await served.toArray()).join('').trim();
        throw new OperatorError(`The server could not write the backup: ${message}`);
      }
      const total = Number(served.headers['x-backup-bytes'] ?? 0);
      let received = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          line.show(`Backing up (from the running server): ${mb(received)} of ${mb(total)}…`);
          done(null, chunk);
        },
      });
      await pipeline([served, counted, ...stages, destination]);
      manifest = JSON.parse(String(served.headers['x-backup-manifest'] ?? '{}')) as Manifest;
      missing = Number(served.trailers['x-backup-missing'] ?? 0);
    } else {
      const db = config.databaseUrl
        ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
        : await openEmbedded(config, 'The backup cannot open the database');
      try {
        const storage = await openStorage(config, 'unused: a backup signs nothing');
        const out = new PassThrough();
        const written = pipeline([out, ...stages, destination]);
        const result = await writeBackup({
          db,
          storage,
          out,
          onReady: (m) => (manifest = m),
          onProgress: (p) => line.show(describeProgress('Backing up', p, manifest ?? null)),
        });
        await written;
        missing = result.ending.missing.length;
        for (const lost of result.ending.missing)
          console.error(
            `⚠ Upload ${lost.uploadId}: its file ${lost.key} is missing from storage (lost before)`,
          );
      } finally {
        await db.close();
      }
    }
    line.done();
    if (!toStdout) await rename(partial, file);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.error(
      `Backup written${toStdout ? '' : ` to ${file}`}: ${manifest ? summary(manifest) : 'done'}, in ${seconds} s.`,
    );
    if (missing > 0)
      console.error(`⚠ ${missing} files named by uploads were missing from storage (see above).`);
  } catch (error) {
    line.done();
    if (!toStdout) await rm(partial, { force: true });
    throw error;
  }
}

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

/** The partial file the backup is written to, opened before any work: a folder that is missing or read-only says so. */
async function openPartial(partial: string, file: string): Promise<Writable> {
  const handle = await open(partial, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
    const folder = dirname(file);
    const why =
      error.code === 'ENOENT'
        ? `the folder ${folder} does not exist`
        : error.code === 'EEXIST'
          ? `${partial} is left from a backup that did not finish; remove it`
          : error.code === 'EACCES' || error.code === 'EPERM'
            ? `this user may not write in ${folder}`
            : error.code === 'EISDIR'
              ? `${file} is a folder`
              : error.message;
    throw new OperatorError(`Cannot write the backup to ${file}: ${why}`);
  });
  return handle.createWriteStream();
}

async function restore(config: Config, file: string): Promise<void> {
  const started = Date.now();
  const source = await archiveSource(file);
  const db = config.databaseUrl
    ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
    : await openEmbedded(
        config,
        'Stop the server first: a restore needs the data directory to itself',
        false,
      );
  const line = progressLine();
  try {
    const storage = await openStorage(config, 'unused: a restore signs nothing');
    let manifest: Manifest | null = null;
    const result = await restoreBackup({
      db,
      storage,
      source,
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
    console.error(`Restored ${summary(result.manifest)} in ${seconds} s.${upgraded}`);
  } finally {
    line.done();
    await db.close();
  }
}

async function moveToPostgres(config: Config): Promise<void> {
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

async function main(): Promise<void> {
  const [command, file, ...rest] = process.argv.slice(2);
  const needsFile = command === 'backup' || command === 'restore';
  if (
    !command ||
    (needsFile && (!file || rest.length > 0)) ||
    (!needsFile && command !== 'move-to-postgres')
  ) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = loadConfig(process.env);
  // npm runs scripts in the project's folder; a file name is meant from where the command was typed.
  const path = file === '-' || file === undefined ? file : resolve(process.env.INIT_CWD ?? '.', file);
  if (command === 'backup') await backup(config, path!);
  else if (command === 'restore') await restore(config, path!);
  else await moveToPostgres(config);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const known =
      error instanceof OperatorError || error instanceof ConfigError || error instanceof SchemaTooNewError;
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  },
);
