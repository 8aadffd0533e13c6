import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { UploadResponse } from '#common/submissions.ts';
import { digest, newSecret } from '../accounts/secrets.ts';
import type { Database } from '../db/database.ts';
import { HttpError, notFound } from '../errors.ts';
import { mimeOfFileName, sniffMime } from './file-type.ts';
import * as repo from './repository.ts';
import type { Storage } from './storage.ts';

export type UploadDeps = { db: Database; storage: Storage; maxBytes: number; log: FastifyBaseLogger };

/** Unclaimed customer uploads older than this are deleted (issue 4). */
export const UNCLAIMED_UPLOAD_HOURS = 24;
/**
 * A file on disk that no upload row names is removed once it is this old. Every such file is a leftover: an
 * upload whose row could not be written, a partial upload cut off by a crash, or the file of a deleted form or
 * stale upload when the process stopped between deleting the row and the file. The hour leaves an upload in
 * progress (written, row not yet inserted) well alone.
 */
export const ORPHAN_FILE_GRACE_MS = 60 * 60 * 1000;
/** Storage keys checked against the database per query. */
const ORPHAN_CHECK_BATCH = 500;

/** Lifetime of a file URL handed to the uploader or minted for an owner's view. */
export const FILE_URL_SECONDS = 60 * 60;

const wrongType = () =>
  new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'Upload a JPEG, PNG or PDF file whose name ends in .jpg, .jpeg, .png or .pdf',
  );
const tooLarge = (max: number) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `The file is larger than ${Math.floor(max / (1024 * 1024))} MB`);

/** Streams the part to storage, checking its content against its name as the bytes arrive. */
export async function receiveUpload(
  deps: UploadDeps,
  part: MultipartFile,
  context: { formId: string | null; ownerId: string | null },
): Promise<UploadResponse> {
  const claimed = mimeOfFileName(part.filename);
  if (!claimed) {
    part.file.resume();
    throw wrongType();
  }
  let saved: { key: string; size: number };
  try {
    saved = await deps.storage.save(part.file, (head) => {
      if (sniffMime(head) !== claimed) throw wrongType();
    });
  } catch (error) {
    part.file.resume();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(deps.maxBytes);
    throw error;
  }
  if (part.file.truncated) {
    await deps.storage.remove(saved.key);
    throw tooLarge(deps.maxBytes);
  }
  const secret = newSecret();
  const originalName = part.filename.slice(0, 255);
  let upload: repo.UploadRecord;
  try {
    upload = await repo.insertUpload(deps.db, {
      formId: context.formId,
      ownerId: context.ownerId,
      storageKey: saved.key,
      originalName,
      mimeType: claimed,
      size: saved.size,
      secretHash: digest(secret),
    });
  } catch (error) {
    // The customer gets an error and will upload again: keep no file that nothing points to.
    await deps.storage.remove(saved.key);
    throw error;
  }
  return {
    file: deps.storage.signUrl(upload.id, FILE_URL_SECONDS),
    _id: secret,
    name: originalName,
    mimeType: claimed,
    size: saved.size,
  };
}

export async function deleteUpload(deps: UploadDeps, deleteId: string): Promise<void> {
  const key = await repo.deleteUnclaimedUpload(deps.db, digest(deleteId));
  if (!key) throw notFound('No such upload');
  await deps.storage.remove(key);
}

export async function deleteStaleUploads(deps: UploadDeps): Promise<number> {
  const keys = await repo.deleteStaleUploads(deps.db, UNCLAIMED_UPLOAD_HOURS);
  await Promise.all(keys.map((key) => deps.storage.remove(key)));
  if (keys.length > 0) deps.log.info({ count: keys.length }, 'deleted unclaimed uploads');
  return keys.length;
}

/** Removes files older than the grace period that no upload row names; returns how many. */
export async function deleteOrphanFiles(deps: UploadDeps, now = new Date()): Promise<number> {
  let removed = 0;
  let batch: string[] = [];
  const check = async () => {
    const known = await repo.knownStorageKeys(deps.db, batch);
    const orphans = batch.filter((key) => !known.has(key));
    await Promise.all(orphans.map((key) => deps.storage.remove(key)));
    removed += orphans.length;
    batch = [];
  };
  for await (const key of deps.storage.keysWrittenBefore(new Date(now.getTime() - ORPHAN_FILE_GRACE_MS))) {
    batch.push(key);
    if (batch.length >= ORPHAN_CHECK_BATCH) await check();
  }
  await check();
  if (removed > 0) deps.log.info({ count: removed }, 'deleted files no upload names');
  return removed;
}

/** RFC 6266 header with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
