import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { JoiningFormBodySchema, JoiningFormSchema, type JoiningForm } from '#common/profile.ts';
import { digest } from '../accounts/secrets.ts';
import { authenticate, ownerOf } from '../auth.ts';
import type { Queryable } from '../db/database.ts';
import { HttpError } from '../errors.ts';

type Documents = {
  /** The owner's unclaimed-or-own upload with this secret, claimed for the profile; null if none. */
  claim: (tx: Queryable, ownerId: string, secretHash: string) => Promise<string | null>;
  view: (uploadId: string) => Promise<JoiningForm['panCard']>;
  /** Deletes a replaced or removed document's row; returns its storage key for `removeFile` after commit. */
  release: (tx: Queryable, uploadId: string) => Promise<string | null>;
  removeFile: (storageKey: string) => Promise<void>;
};

const EMPTY: Omit<JoiningForm, 'panCard' | 'aadharCard' | 'updatedAt'> = {
  fullName: '',
  email: '',
  phoneNumber: '',
  address1: '',
  address2: '',
  address3: '',
  country: '',
  state: '',
  city: '',
  zip: '',
};

type ProfileRow = {
  details: typeof EMPTY;
  pan_upload_id: string | null;
  aadhar_upload_id: string | null;
  updated_at: Date;
};

/** GET/PUT /api/userForm: the joining form, saved to the signed-in owner's profile. */
export async function profileRoutes(app: FastifyInstance, documents: Documents): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();

  const read = async (ownerId: string): Promise<JoiningForm> => {
    const [row] = await app.db.query<ProfileRow>(
      'select details, pan_upload_id, aadhar_upload_id, updated_at from owner_profiles where account_id = $1',
      [ownerId],
    );
    return {
      ...EMPTY,
      ...row?.details,
      panCard: row?.pan_upload_id ? await documents.view(row.pan_upload_id) : null,
      aadharCard: row?.aadhar_upload_id ? await documents.view(row.aadhar_upload_id) : null,
      updatedAt: row?.updated_at.toISOString() ?? null,
    };
  };

  api.get('/api/userForm', { schema: { response: { 200: JoiningFormSchema } } }, async (request) =>
    read(ownerOf(request).id),
  );

  api.put(
    '/api/userForm',
    { schema: { body: JoiningFormBodySchema, response: { 200: JoiningFormSchema } } },
    async (request) => {
      const ownerId = ownerOf(request).id;
      const { panCardId, aadharCardId, ...details } = request.body;
      const replaced = await app.db.transaction(async (tx) => {
        const [before] = await tx.query<{ pan_upload_id: string | null; aadhar_upload_id: string | null }>(
          'select pan_upload_id, aadhar_upload_id from owner_profiles where account_id = $1 for update',
          [ownerId],
        );
        const resolve = async (secret: string | null | undefined, field: string) => {
          if (secret === undefined || secret === null) return secret;
          const id = await documents.claim(tx, ownerId, digest(secret));
          if (!id) throw new HttpError(400, 'VALIDATION_FAILED', `${field}: Upload the document again`);
          return id;
        };
        const pan = await resolve(panCardId, 'panCardId');
        const aadhar = await resolve(aadharCardId, 'aadharCardId');
        await tx.query(
          `insert into owner_profiles (account_id, details, pan_upload_id, aadhar_upload_id) values ($1, $2, $3, $4)
           on conflict (account_id) do update set details = excluded.details, updated_at = now(),
             pan_upload_id = case when $5 then excluded.pan_upload_id else owner_profiles.pan_upload_id end,
             aadhar_upload_id = case when $6 then excluded.aadhar_upload_id else owner_profiles.aadhar_upload_id end`,
          [
            ownerId,
            JSON.stringify(details),
            pan ?? null,
            aadhar ?? null,
            pan !== undefined,
            aadhar !== undefined,
          ],
        );
        // A document replaced or removed is deleted, not kept on disk for good (issue 10).
        const old = [
          pan !== undefined && before?.pan_upload_id !== pan ? before?.pan_upload_id : null,
          aadhar !== undefined && before?.aadhar_upload_id !== aadhar ? before?.aadhar_upload_id : null,
        ].filter((id): id is string => typeof id === 'string');
        const keys = [];
        for (const id of old) keys.push(await documents.release(tx, id));
        return keys;
      });
      // After commit: a file removed before a rollback would leave its row pointing at nothing.
      for (const key of replaced) if (key) await documents.removeFile(key);
      return read(ownerId);
    },
  );
}
