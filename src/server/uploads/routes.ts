import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UploadResponseSchema } from '#common/submissions.ts';
import { authenticate } from '../auth.ts';
import { formClosed, HttpError, notFound } from '../errors.ts';
import * as repo from './repository.ts';
import { contentDisposition, deleteUpload, receiveUpload, type UploadDeps } from './service.ts';

const UploadQuerySchema = z.object({ formId: z.uuid({ error: 'Not a valid form id' }).optional() });
const DeleteParamsSchema = z.object({ deleteId: z.string().regex(/^[\w-]{43}$/, 'Not a valid upload id') });
const FileParamsSchema = z.object({ uploadId: z.uuid() });
const FileQuerySchema = z.object({
  e: z.string().max(20),
  s: z.string().max(100),
  download: z.enum(['1']).optional(),
});

/** POST/DELETE /api/profile (spec §7 Customer) and the signed /files/ URLs. */
export type UploadRoutesOptions = {
  /** Whether a form with this id exists and takes responses; composed in app.ts from the forms feature. */
  formStatus: (formId: string) => Promise<'open' | 'closed' | 'missing'>;
};

export async function uploadRoutes(app: FastifyInstance, options: UploadRoutesOptions): Promise<void> {
  const { config } = app;
  await app.register(multipart, {
    limits: {
      fileSize: config.uploadMaxBytes,
      files: 1,
      fields: 5,
      parts: 6,
      fieldSize: 1024,
      headerPairs: 100,
    },
  });
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deps: UploadDeps = {
    db: app.db,
    storage: app.storage,
    maxBytes: config.uploadMaxBytes,
    log: app.log,
  };
  const perIp = config.rateLimits.uploadsPerIp;
  const uploadLimit = app.rateLimit({
    max: perIp.max,
    timeWindow: perIp.windowMs,
    keyGenerator: (r) => `upload:${r.ip}`,
  });

  api.post(
    '/api/profile',
    {
      schema: { querystring: UploadQuerySchema, response: { 200: UploadResponseSchema } },
      preHandler: uploadLimit,
    },
    async (request) => {
      // A customer uploads for a form that exists; an owner uploads profile documents with their token.
      let context: { formId: string | null; ownerId: string | null };
      if (request.query.formId) {
        const status = await options.formStatus(request.query.formId);
        if (status === 'missing') throw notFound('Form not found');
        if (status === 'closed') throw formClosed();
        context = { formId: request.query.formId, ownerId: null };
      } else {
        await authenticate(request);
        context = { formId: null, ownerId: request.owner?.id ?? null };
      }
      if (!request.isMultipart()) {
        throw new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the file as multipart/form-data in the field "file"',
        );
      }
      const part = await request.file();
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw new HttpError(400, 'VALIDATION_FAILED', 'file: Choose a file to upload');
      }
      return receiveUpload(deps, part, context);
    },
  );

  api.delete('/api/profile/:deleteId', { schema: { params: DeleteParamsSchema } }, async (request) => {
    await deleteUpload(deps, request.params.deleteId);
    return { ok: true, message: 'File removed' };
  });

  api.get(
    '/files/:uploadId',
    { schema: { params: FileParamsSchema, querystring: FileQuerySchema } },
    async (request, reply) => {
      const { uploadId } = request.params;
      const { e, s, download } = request.query;
      // A bad or expired signature looks like a missing file: URLs cannot be probed.
      if (!app.storage.verifyUrl(uploadId, e, s)) throw notFound('File not found or link expired');
      const upload = await repo.findUploadById(app.db, uploadId);
      if (!upload) throw notFound('File not found or link expired');
      return reply
        .type(upload.mimeType)
        .header('content-length', upload.size)
        .header(
          'content-disposition',
          contentDisposition(download ? 'attachment' : 'inline', upload.originalName),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(app.storage.open(upload.storageKey));
    },
  );
}
