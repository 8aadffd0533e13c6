import type { JoiningForm } from '#common/profile.ts';
import type { Queryable } from '../../db/database.ts';

/** The joining form's text answers, as stored in one JSON column. */
export type ProfileDetails = Omit<JoiningForm, 'panCard' | 'aadharCard' | 'updatedAt'>;

export type ProfileRecord = {
  details: Partial<ProfileDetails>;
  panUploadId: string | null;
  aadharUploadId: string | null;
  updatedAt: Date;
};

type ProfileRow = {
  details: Partial<ProfileDetails>;
  pan_upload_id: string | null;
  aadhar_upload_id: string | null;
  updated_at: Date;
};

export async function findProfile(db: Queryable, ownerId: string): Promise<ProfileRecord | null> {
  const [row] = await db.query<ProfileRow>(
    'select details, pan_upload_id, aadhar_upload_id, updated_at from owner_profiles where account_id = $1',
    [ownerId],
  );
  return row
    ? {
        details: row.details,
        panUploadId: row.pan_upload_id,
        aadharUploadId: row.aadhar_upload_id,
        updatedAt: row.updated_at,
      }
    : null;
}

/**
 * The profile's document ids, its row locked until the transaction ends. The row is created (empty) first if missing,
 * so two first saves wait for each other too: before, each locked nothing and the second overwrote the first's
 * documents without deleting them.
 */
export async function lockProfileDocuments(
  tx: Queryable,
  ownerId: string,
): Promise<{ panUploadId: string | null; aadharUploadId: string | null }> {
  await tx.query(
    `insert into owner_profiles (account_id, details) values ($1, '{}') on conflict (account_id) do nothing`,
    [ownerId],
  );
  const [row] = await tx.query<{ pan_upload_id: string | null; aadhar_upload_id: string | null }>(
    'select pan_upload_id, aadhar_upload_id from owner_profiles where account_id = $1 for update',
    [ownerId],
  );
  return { panUploadId: row?.pan_upload_id ?? null, aadharUploadId: row?.aadhar_upload_id ?? null };
}

/**
 * Creates or replaces the profile's details. A document id left `undefined` keeps the stored document; null removes
 * it; an id sets it.
 */
export async function saveProfile(
  tx: Queryable,
  ownerId: string,
  profile: { details: ProfileDetails; pan: string | null | undefined; aadhar: string | null | undefined },
): Promise<void> {
  const { details, pan, aadhar } = profile;
  await tx.query(
    `insert into owner_profiles (account_id, details, pan_upload_id, aadhar_upload_id) values ($1, $2, $3, $4)
     on conflict (account_id) do update set details = excluded.details, updated_at = now(),
       pan_upload_id = case when $5 then excluded.pan_upload_id else owner_profiles.pan_upload_id end,
       aadhar_upload_id = case when $6 then excluded.aadhar_upload_id else owner_profiles.aadhar_upload_id end`,
    [ownerId, JSON.stringify(details), pan ?? null, aadhar ?? null, pan !== undefined, aadhar !== undefined],
  );
}
