import type { FileSync } from './file-sync.ts';
import type { S3Location } from './storage-url.ts';
import { createDiskStorage, type Storage } from './storage.ts';

/** The store STORAGE_URL names (an S3-compatible bucket), or the local disk under DATA_DIR/uploads when unset. */
export async function openStorage(
  where: {
    storage: S3Location | undefined;
    dataDir: string;
    storageAnswerTimeoutMs?: number;
    fileSync?: FileSync;
    /** Where the S3 client's own warnings go (as lines of the app's log); unset: stderr. */
    log?: { warn(message: string): void };
  },
  signingKey: string,
): Promise<Storage> {
  const location = where.storage;
  return location
    ? // Loaded only when used: the S3 client is a large module a disk-only server never needs.
      await import('./s3-storage.ts').then((s3) =>
        s3.createS3Storage(location, signingKey, {
          answerTimeoutMs: where.storageAnswerTimeoutMs,
          log: where.log,
        }),
      )
    : await createDiskStorage(where.dataDir, signingKey, where.fileSync);
}
