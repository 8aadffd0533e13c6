import type { Queryable } from '../../db/database.ts';

export type UploadRecord = {
  id: string;
  formId: string | null;
  ownerId: string | null;
  storageKey: string;
  originalName: string;
  mimeType: string;
  size: number;
  submissionId: string | null;
};

type UploadRow = {
  id: string;
  form_id: string | null;
  owner_id: string | null;
  storage_key: string;
  original_name: string;
  mime_type: string;
  size_bytes: string | number;
  submission_id: string | null;
};
const COLUMNS = 'id, form_id, owner_id, storage_key, original_name, mime_type, size_bytes, submission_id';
const toUpload = (r: UploadRow): UploadRecord => ({
  id: r.id,
  formId: r.form_id,
  ownerId: r.owner_id,
  storageKey: r.storage_key,
  originalName: r.original_name,
  mimeType: r.mime_type,
  size: Number(r.size_bytes),
  submissionId: r.submission_id,
});

export async function insertUpload(
  db: Queryable,
  upload: Omit<UploadRecord, 'id' | 'submissionId'> & { secretHash: string; clientKey: string },
): Promise<UploadRecord> {
  const [row] = await db.query<UploadRow>(
    `insert into uploads (form_id, owner_id, storage_key, original_name, mime_type, size_bytes, secret_hash,
                          client_key)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
    [
      upload.formId,
      upload.ownerId,
      upload.storageKey,
      upload.originalName,
      upload.mimeType,
      upload.size,
      upload.secretHash,
      upload.clientKey,
    ],
  );
  if (!row) throw new Error('insert into uploads returned no row');
  return toUpload(row);
}

export async function findUploadById(db: Queryable, id: string): Promise<UploadRecord | null> {
  const [row] = await db.query<UploadRow>(`select ${COLUMNS} from uploads where id = $1`, [id]);
  return row ? toUpload(row) : null;
}

export async function findUploadsBySecret(
  db: Queryable,
  secretHashes: readonly string[],
): Promise<(UploadRecord & { secretHash: string })[]> {
  const rows = await db.query<UploadRow & { secret_hash: string }>(
    `select ${COLUMNS}, secret_hash from uploads where secret_hash = any($1::text[])`,
    [secretHashes],
  );
  return rows.map((r) => ({ ...toUpload(r), secretHash: r.secret_hash }));
}

/** Deletes an upload no submission has claimed; returns its storage key, or null. */
export async function deleteUnclaimedUpload(db: Queryable, secretHash: string): Promise<string | null> {
  const [row] = await db.query<{ storage_key: string }>(
    'delete from uploads where secret_hash = $1 and claimed_at is null returning storage_key',
    [secretHash],
  );
  return row?.storage_key ?? null;
}

export async function claimUploads(
  db: Queryable,
  submissionId: string,
  uploadIds: readonly string[],
): Promise<number> {
  const rows = await db.query(
    // An anonymous upload (no form id) joins the form of the submission that claims it, so deleting the form
    // deletes its file; the client key is only kept while the upload is unclaimed.
    `update uploads set submission_id = $1, claimed_at = now(), client_key = null,
            form_id = coalesce(form_id, (select form_id from submissions where id = $1))
      where id = any($2::uuid[]) and claimed_at is null returning id`,
    [submissionId, uploadIds],
  );
  return rows.length;
}

/** Deletes the uploads these submissions claimed (the submissions are being deleted); returns their storage keys. */
export async function deleteUploadsOfSubmissions(
  db: Queryable,
  submissionIds: readonly string[],
): Promise<string[]> {
  if (submissionIds.length === 0) return [];
  const rows = await db.query<{ storage_key: string }>(
    'delete from uploads where submission_id = any($1::uuid[]) returning storage_key',
    [submissionIds],
  );
  return rows.map((r) => r.storage_key);
}

/** Removes uploads nobody claimed within `hours`; returns their storage keys so the files can go too. */
export async function deleteStaleUploads(db: Queryable, hours: number): Promise<string[]> {
  const rows = await db.query<{ storage_key: string }>(
    `delete from uploads where claimed_at is null and created_at < now() - make_interval(hours => $1)
     returning storage_key`,
    [hours],
  );
  return rows.map((r) => r.storage_key);
}

/** Which of these storage keys an upload row still names. */
export async function knownStorageKeys(db: Queryable, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.query<{ storage_key: string }>(
    'select storage_key from uploads where storage_key = any($1::text[])',
    [keys],
  );
  return new Set(rows.map((r) => r.storage_key));
}

export async function storageKeysOfForm(db: Queryable, formId: string): Promise<string[]> {
  const rows = await db.query<{ storage_key: string }>('select storage_key from uploads where form_id = $1', [
    formId,
  ]);
  return rows.map((r) => r.storage_key);
}

export async function findUploadsByIds(db: Queryable, ids: readonly string[]): Promise<UploadRecord[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<UploadRow>(`select ${COLUMNS} from uploads where id = any($1::uuid[])`, [ids]);
  return rows.map(toUpload);
}

/** Claims an owner's own upload (made with their token) for their profile; returns its id, or null. */
export async function claimOwnerUpload(
  db: Queryable,
  ownerId: string,
  secretHash: string,
): Promise<string | null> {
  const [row] = await db.query<{ id: string }>(
    `update uploads set claimed_at = coalesce(claimed_at, now()), client_key = null
      where secret_hash = $1 and owner_id = $2 and form_id is null and submission_id is null returning id`,
    [secretHash, ownerId],
  );
  return row?.id ?? null;
}

/** Removes an upload by id (a profile document replaced or removed); returns its storage key, or null. */
export async function deleteUploadById(db: Queryable, id: string): Promise<string | null> {
  const [row] = await db.query<{ storage_key: string }>(
    'delete from uploads where id = $1 returning storage_key',
    [id],
  );
  return row?.storage_key ?? null;
}

export type ClientUsage = { count: number; bytes: number; oldest: Date | null };

/** Unclaimed uploads one client address made in the last `windowMs`: how many, their bytes, the oldest. */
export async function unclaimedUsageOf(
  db: Queryable,
  clientKey: string,
  windowMs: number,
): Promise<ClientUsage> {
  const [row] = await db.query<{ count: string | number; bytes: string | number; oldest: Date | null }>(
    `select count(*) as count, coalesce(sum(size_bytes), 0) as bytes, min(created_at) as oldest from uploads
      where client_key = $1 and claimed_at is null and created_at > now() - make_interval(secs => $2)`,
    [clientKey, windowMs / 1000],
  );
  return { count: Number(row?.count ?? 0), bytes: Number(row?.bytes ?? 0), oldest: row?.oldest ?? null };
}

/** Whether any upload row exists: a database that names no file owns none of a store's. */
export async function hasUploads(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ any: boolean }>('select exists (select 1 from uploads) as any');
  return row?.any === true;
}
