// Backup and restore (issue 15, ADR 029): how long an instance of 100,000 submissions and 200 files takes to back up
// and to restore, and how long the backup holds the database (on the embedded engine other queries wait meanwhile).
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openDatabase } from '../src/server/db/database.ts';
import { writeBackup } from '../src/server/features/backup/backup.ts';
import { restoreBackup } from '../src/server/features/backup/restore.ts';
import { createDiskStorage } from '../src/server/storage/storage.ts';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { createForm, signUpOwner } from './owner.ts';
import { seedSubmissions } from './seed.ts';
import { startBenchServer } from './server.ts';

export const BACKUP_SUBMISSIONS = 100_000;
const FILES = 200;
const FILE_BYTES = 256 * 1024;

export type BackupResult = {
  submissions: number;
  files: number;
  archiveBytes: number;
  backupSeconds: number;
  /** From the start until the rows were read: the time the database is held by the backup's transaction. */
  rowsSeconds: number;
  restoreSeconds: number;
};

export async function benchBackup(options: {
  engine: 'pglite' | 'postgres';
  databaseUrl: string | undefined;
  restoreUrl: string | undefined;
  dataDir: string;
  mail: MailCapture;
  log: (line: string) => void;
}): Promise<BackupResult> {
  const server = await startBenchServer(options);
  const owner = await signUpOwner(server.url, options.mail);
  const form = await createForm(server.url, owner);
  await server.stop();
  await seedSubmissions({ ...options, form, from: 0, to: BACKUP_SUBMISSIONS });

  const work = await mkdtemp(join(tmpdir(), 'easyform-bench-backup-'));
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    const storage = await createDiskStorage(options.dataDir, 'bench');
    for (let i = 0; i < FILES; i += 1) {
      const saved = await storage.save(Readable.from([randomBytes(FILE_BYTES)]), () => undefined);
      await db.query(
        `insert into uploads (form_id, owner_id, storage_key, original_name, mime_type, size_bytes, secret_hash)
         values ($1, $2, $3, 'scan.pdf', 'application/pdf', $4, $5)`,
        [form._id, owner.id, saved.key, saved.size, randomBytes(16).toString('hex')],
      );
    }
    options.log(
      `  ${options.engine}: ${BACKUP_SUBMISSIONS.toLocaleString('en-US')} submissions, ${FILES} files seeded`,
    );

    const archive = join(work, 'backup.tar');
    const started = performance.now();
    let rowsSeconds = 0;
    await writeBackup({
      db,
      storage,
      out: createWriteStream(archive),
      onReady: () => (rowsSeconds = (performance.now() - started) / 1000),
    });
    const backupSeconds = (performance.now() - started) / 1000;
    const archiveBytes = (await stat(archive)).size;

    const targetDir = join(work, 'restored');
    const target = await openDatabase({ databaseUrl: options.restoreUrl, dataDir: targetDir });
    const restoreStarted = performance.now();
    try {
      await restoreBackup({
        db: target,
        storage: await createDiskStorage(targetDir, 'bench'),
        source: createReadStream(archive),
      });
    } finally {
      await target.close();
    }
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    return {
      submissions: BACKUP_SUBMISSIONS,
      files: FILES,
      archiveBytes,
      backupSeconds,
      rowsSeconds,
      restoreSeconds,
    };
  } finally {
    await db.close();
    await rm(work, { recursive: true, force: true });
  }
}
