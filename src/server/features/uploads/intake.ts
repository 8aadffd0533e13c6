import type { FastifyInstance } from 'fastify';
import { getOrCreateSetting } from '../../db/settings.ts';
import { newKey } from '../../http/crypto.ts';
import { HttpError } from '../../http/errors.ts';
import { clientKeyOf } from './client-bounds.ts';
import type { ImageReencoder } from './image.ts';
import { deleteUpload, receiveUpload, type UploadDeps } from './service.ts';

/** What the upload service needs, from the app's config and services. */
export const uploadDepsOf = (app: FastifyInstance, images: ImageReencoder): UploadDeps => ({
  db: app.db,
  storage: app.storage,
  images,
  maxBytes: app.config.uploadMaxBytes,
  log: app.log,
  bounds: {
    count: app.config.rateLimits.unclaimedUploadsPerIp,
    bytes: app.config.rateLimits.unclaimedUploadBytesPerIp,
  },
});

/** The secret that keys client addresses for the per-address bounds (stored once, shared by every process). */
export const clientAddressSecret = (app: FastifyInstance) =>
  getOrCreateSetting(app.db, 'client_address_key', newKey);

/**
 * Files that arrive with a form posted without JavaScript (docs/decisions/024): each goes through exactly what
 * POST /api/profile?formId= does to it, and becomes an anonymous upload for that form until a submission claims it.
 */
export async function createFileIntake(app: FastifyInstance, images: ImageReencoder) {
  const deps = uploadDepsOf(app, images);
  const secret = await clientAddressSecret(app);
  return {
    async receive(part: Parameters<typeof receiveUpload>[1], clientIp: string, formId: string) {
      const context = { formId, ownerId: null, clientKey: clientKeyOf(clientIp, secret) };
      const upload = await receiveUpload(deps, part, context);
      return { deleteId: upload._id, name: upload.name, url: upload.file };
    },
    async discard(deleteId: string) {
      // 404: claimed by the submission (or already gone), which is what the caller wants either way.
      await deleteUpload(deps, deleteId).catch((error: unknown) => {
        if (!(error instanceof HttpError && error.statusCode === 404)) throw error;
      });
    },
  };
}
