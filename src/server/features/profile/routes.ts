import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { JoiningFormBodySchema, JoiningFormSchema, type JoiningForm } from '#common/profile.ts';
import type { Queryable } from '../../db/database.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { HttpError } from '../../http/errors.ts';
import { findProfile, lockProfileDocuments, saveProfile, type ProfileDetails } from './repository.ts';

/** What the profile needs of uploads; composed in app.ts from the uploads feature. */
export type ProfileDocuments = {
  /** The owner's own upload with this delete id (`_id` of the upload), claimed for the profile; null if none. */
  claim: (tx: Queryable, ownerId: string, deleteId: string) => Promise<string | null>;
  view: (uploadId: string) => Promise<JoiningForm['panCard']>;
  /** Deletes a replaced or removed document's row; returns its storage key for `removeFile` after commit. */
  release: (tx: Queryable, uploadId: string) => Promise<string | null>;
  removeFile: (storageKey: string) => Promise<void>;
};

const EMPTY: ProfileDetails = {
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

/** GET/PUT /api/userForm: the joining form, saved to the signed-in owner's profile. */
export async function profileRoutes(app: FastifyInstance, documents: ProfileDocuments): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();

  const read = async (ownerId: string): Promise<JoiningForm> => {
    const profile = await findProfile(app.db, ownerId);
    return {
      ...EMPTY,
      ...profile?.details,
      panCard: profile?.panUploadId ? await documents.view(profile.panUploadId) : null,
      aadharCard: profile?.aadharUploadId ? await documents.view(profile.aadharUploadId) : null,
      updatedAt: profile?.updatedAt.toISOString() ?? null,
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
        const before = await lockProfileDocuments(tx, ownerId);
        const resolve = async (secret: string | null | undefined, field: string) => {
          if (secret === undefined || secret === null) return secret;
          const id = await documents.claim(tx, ownerId, secret);
          if (!id) throw new HttpError(400, 'VALIDATION_FAILED', `${field}: Upload the document again`);
          return id;
        };
        const pan = await resolve(panCardId, 'panCardId');
        const aadhar = await resolve(aadharCardId, 'aadharCardId');
        // One upload in both places would be deleted with whichever is replaced or removed first, the other with it.
        const kept = (given: string | null | undefined, stored: string | null | undefined) =>
          given === undefined ? (stored ?? null) : given;
        const keptPan = kept(pan, before.panUploadId);
        const keptAadhar = kept(aadhar, before.aadharUploadId);
        if (keptPan !== null && keptPan === keptAadhar) {
          throw new HttpError(
            400,
            'VALIDATION_FAILED',
            `${pan === undefined ? 'aadharCardId' : 'panCardId'}: This file is already your other document; upload each document on its own`,
          );
        }
        await saveProfile(tx, ownerId, { details, pan, aadhar });
        // A document replaced or removed is deleted, not kept on disk for good (issue 10); one moved to the other
        // slot is neither.
        const old = [before.panUploadId, before.aadharUploadId].filter(
          (id): id is string => typeof id === 'string' && id !== keptPan && id !== keptAadhar,
        );
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
