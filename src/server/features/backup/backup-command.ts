// `npm run backup -- FILE` (docs/operations.md): from the running embedded server over its socket, or from the
// database itself.
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PassThrough, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { openDatabase } from '../../db/database.ts';
import type { Config } from '../../runtime/config.ts';
import { openStorage } from '../../storage/open-storage.ts';
import { OperatorError, type Manifest } from './archive.ts';
import { requestBackup } from './backup-socket.ts';
import { writeBackup } from './backup.ts';
import { describeProgress, mb, openEmbedded, progressLine, summary } from './command-helpers.ts';

export async function backup(config: Config, file: string): Promise<void> {
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
      // The store first: one that cannot be reached is said at once, before the database is opened.
      const storage = await openStorage(config, 'unused: a backup signs nothing');
      const db = config.databaseUrl
        ? await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir })
        : await openEmbedded(config, 'The backup cannot open the database');
      try {
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
