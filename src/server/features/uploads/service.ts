import { extname } from 'node:path';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { FileView, UploadResponse } from '#common/submissions.ts';
import { truncateText } from '#common/unstorable-text.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { isForeignKeyViolation } from '../../db/sql-errors.ts';
import { digest, newSecret } from '../../http/crypto.ts';
import { assertStorableText, HttpError, notFound } from '../../http/errors.ts';
import { unavailableOf } from '../../http/unavailable.ts';
import type { Storage } from '../../storage/storage.ts';
import { assertWithinUnclaimedBounds, type UnclaimedBounds } from './client-bounds.ts';
import { mimeOfFileName, sniffMime } from './file-type.ts';
import { type ImageReencoder, isImageMime } from './image.ts';
import * as repo from './repository.ts';

export type UploadDeps = {
  db: Database;
  storage: Storage;
  images: ImageReencoder;
  maxBytes: number;
  bounds: UnclaimedBounds;
  log: FastifyBaseLogger;
};
/** What the sweeps need. */
export type SweepDeps = Pick<UploadDeps, 'db' | 'storage' | 'log'>;

/** Unclaimed customer uploads older than this are deleted (issue 4). */
export const UNCLAIMED_UPLOAD_HOURS = 24;
/** Lifetime of a file URL handed to the uploader or minted for an owner's view. */
export const FILE_URL_SECONDS = 60 * 60;

const wrongType = () =>
  new HttpError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    'Upload a JPEG, PNG or PDF file whose name ends in .jpg, .jpeg, .png or .pdf',
  );
const emptyFile = () => new HttpError(400, 'VALIDATION_FAILED', 'The file is empty. Choose the file again');
/** The multipart parser's own failure mid-file: the body was cut off or broken, which is the client's doing. */
const brokenBody = (error: unknown) =>
  new HttpError(400, 'VALIDATION_FAILED', `file: The multipart body is malformed (${String(error)})`);
const tooLarge = (max: number) =>
  new HttpError(413, 'PAYLOAD_TOO_LARGE', `The file is larger than ${Math.floor(max / (1024 * 1024))} MB`);

/**
 * Who is uploading: for a form, as an owner (profile documents), or anonymously (as the customer's page
 * does); and from where.
 */
export type UploadContext = { formId: string | null; ownerId: string | null; clientKey: string };

/**
 * Streams the part to storage, checking its content against its name as the bytes arrive; a JPEG or PNG is
 * re-encoded on the way (image.ts), so the stored file and its size are the re-encoded ones.
 */
export async function receiveUpload(
  deps: UploadDeps,
  part: MultipartFile,
  context: UploadContext,
): Promise<UploadResponse> {
  const { originalName, mime } = await admit(deps, part.filename, context.clientKey).catch(
    (error: unknown) => {
      part.file.resume();
      throw error;
    },
  );
  const inspect = (head: Buffer) => {
    if (head.length === 0) throw emptyFile();
    if (sniffMime(head) !== mime) throw wrongType();
  };
  const refuseTruncated = () => {
    if (part.file.truncated) throw tooLarge(deps.maxBytes);
  };
  let saved: { key: string; size: number };
  try {
    saved = isImageMime(mime)
      ? await deps.images.reencode({
          source: part.file,
          mime,
          inspect,
          whenStaged: refuseTruncated,
          save: (image) => deps.storage.save(image, () => undefined),
        })
      : await deps.storage.save(part.file, inspect);
  } catch (error) {
    part.file.resume();
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge(deps.maxBytes);
    // An error of the part's own stream (busboy: "Part terminated early…") is the body's, not ours.
    // A storage that failed (S3 answering 503, a full disk) broke the part's stream too: that is not the body's.
    if (part.file.errored && !(error instanceof HttpError) && !unavailableOf(error))
      throw brokenBody(part.file.errored);
    throw error;
  }
  if (part.file.truncated) {
    await deps.storage.remove(saved.key);
    throw tooLarge(deps.maxBytes);
  }
  const secret = newSecret();
  let upload: repo.UploadRecord;
  try {
    upload = await repo.insertUpload(deps.db, {
      formId: context.formId,
      ownerId: context.ownerId,
      clientKey: context.clientKey,
      storageKey: saved.key,
      originalName,
      mimeType: mime,
      size: saved.size,
      secretHash: digest(secret),
    });
  } catch (error) {
    // The customer gets an error and will upload again: keep no file that nothing points to.
    await deps.storage.remove(saved.key);
    // The form was deleted while its file was arriving (checked before the first byte; the row's foreign key is
    // the check at the end).
    if (isForeignKeyViolation(error)) throw notFound('Form not found');
    throw error;
  }
  try {
    await assertWithinUnclaimedBounds(deps.db, context.clientKey, deps.bounds, true);
  } catch (error) {
    await removeUpload(deps, upload.id);
    throw error;
  }
  return {
    file: deps.storage.signUrl(upload.id, FILE_URL_SECONDS),
    _id: secret,
    name: originalName,
    mimeType: mime,
    size: saved.size,
  };
}

/** The checks made before a byte of the file is read: its name, its claimed type, the address's allowance. */
async function admit(
  deps: UploadDeps,
  filename: string,
  clientKey: string,
): Promise<{ originalName: string; mime: string }> {
  const originalName = storableFileName(filename);
  const mime = mimeOfFileName(originalName);
  if (!mime) throw wrongType();
  await assertWithinUnclaimedBounds(deps.db, clientKey, deps.bounds, false);
  return { originalName, mime };
}

/** The owner's view of each upload among `ids` that exists, by id, its URLs signed afresh. */
export async function viewUploads(
  deps: Pick<UploadDeps, 'db' | 'storage'>,
  ids: readonly string[],
): Promise<Map<string, FileView>> {
  const uploads = await repo.findUploadsByIds(deps.db, ids);
  return new Map(
    uploads.map((upload) => {
      const url = deps.storage.signUrl(upload.id, FILE_URL_SECONDS);
      const view = { url, downloadUrl: `${url}&download=1`, size: upload.size };
      return [upload.id, { ...view, originalName: upload.originalName, mimeType: upload.mimeType }];
    }),
  );
}

/** Claims the owner's own upload (made with their token) with this delete id for their profile; its id, or null. */
export const claimProfileDocument = (tx: Queryable, ownerId: string, deleteId: string) =>
  repo.claimOwnerUpload(tx, ownerId, digest(deleteId));

/** Removes an upload and its file, as when an owner replaces a profile document. */
export async function removeUpload(deps: SweepDeps, uploadId: string): Promise<void> {
  const key = await repo.deleteUploadById(deps.db, uploadId);
  if (key) await deps.storage.remove(key);
}

export async function deleteUpload(deps: UploadDeps, deleteId: string): Promise<void> {
  const key = await repo.deleteUnclaimedUpload(deps.db, digest(deleteId));
  if (!key) throw notFound('No such upload');
  await deps.storage.remove(key);
}

export async function deleteStaleUploads(deps: SweepDeps): Promise<number> {
  const keys = await repo.deleteStaleUploads(deps.db, UNCLAIMED_UPLOAD_HOURS);
  await Promise.all(keys.map((key) => deps.storage.remove(key)));
  if (keys.length > 0) deps.log.info({ count: keys.length }, 'deleted unclaimed uploads');
  return keys.length;
}

/**
 * The name the uploader gave, made safe to keep and to show: text PostgreSQL cannot store is refused (400 naming the
 * field); anything before the last path separator is dropped, as browsers do, so the name can never act as a path;
 * control characters become "_"; and a long name keeps its extension, cut without splitting a character.
 */
export function storableFileName(name: string): string {
  assertStorableText(name, 'file.filename');
  const base = name.split(/[/\\]/).pop() ?? '';
  // Control characters (C0, DEL, C1) would be invisible or break a header; NUL was refused above. Direction
  // controls, line separators and invisible spaces would let a name show other than it is ("invoice\u202Egnp.pdf"
  // shows as "invoicefdp.png"). Joiners stay: emoji sequences and Persian words need them.
  const clean = base.replace(INVISIBLE_OR_CONTROL, '_').trim();
  const safe = clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
  if (safe.length <= MAX_NAME) return safe;
  const ext = extname(safe).slice(0, 16);
  return truncateText(safe.slice(0, safe.length - ext.length), MAX_NAME - ext.length) + ext;
}
const MAX_NAME = 255;
const INVISIBLE_OR_CONTROL =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/g;
