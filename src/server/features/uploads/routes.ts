import multipart from '@fastify/multipart';
import contentDisposition from 'content-disposition';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { UploadResponseSchema } from '#common/submissions.ts';
import { authenticate, readToken } from '../../http/auth.ts';
import { assertStorableText, formClosed, HttpError, notFound, waitWords } from '../../http/errors.ts';
import { clientKeyOf } from './client-bounds.ts';
import type { ImageReencoder } from './image.ts';
import { clientAddressSecret, uploadDepsOf } from './intake.ts';
import * as repo from './repository.ts';
import { deleteUpload, receiveUpload } from './service.ts';

const UploadQuerySchema = z.object({ formId: z.uuid({ error: 'Not a valid form id' }).optional() });
const DeleteParamsSchema = z.object({ deleteId: z.string().regex(/^[\w-]{43}$/, 'Not a valid upload id') });
const FileParamsSchema = z.object({ uploadId: z.uuid() });
const FileQuerySchema = z.object({
  // A signature missing, repeated or too long is a bad link like any other: 404 below, never a 400 telling which.
  e: z.string().max(20).catch(''),
  s: z.string().max(100).catch(''),
  download: z.enum(['1']).optional(),
});

/** POST/DELETE /api/profile (the customer's uploads: docs/product.md, API) and the signed /files/ URLs. */
export type UploadRoutesOptions = {
  /** Whether a form with this id exists and takes files; composed in app.ts from the forms feature. */
  /** Closed: by its owner, its schedule or its limit, with what to tell the customer. */
  formStatus: (
    formId: string,
  ) => Promise<'open' | 'missing' | 'no-file-question' | { closedMessage: string }>;
  images: ImageReencoder;
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
  const deps = uploadDepsOf(app, options.images);
  const addressSecret = await clientAddressSecret(app);
  const clientKey = (request: FastifyRequest) => clientKeyOf(request.ip, addressSecret);
  const perIp = config.rateLimits.uploadsPerIp;
  const uploadLimit = app.rateLimit({
    max: perIp.max,
    timeWindow: perIp.windowMs,
    keyGenerator: (r) => `upload:${clientKey(r)}`,
    // The customer's file slot shows the message: say how long to wait, not the plugin's "Rate limit exceeded".
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many files came from this connection in a short time. Wait ${waitWords(context.ttl / 1000)} and try again.`,
    }),
  });

  api.post(
    '/api/profile',
    {
      schema: { querystring: UploadQuerySchema, response: { 200: UploadResponseSchema } },
      preHandler: uploadLimit,
    },
    async (request) => {
      const context = {
        ...(await uploaderOf(request, request.query.formId, options)),
        clientKey: clientKey(request),
      };
      if (!request.isMultipart()) {
        throw new HttpError(
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the file as multipart/form-data in the field "file"',
        );
      }
      const part = await request.file().catch((error: unknown) => {
        // Anything busboy throws here is about the client's body (a missing boundary, a broken header); limits
        // carry their own 4xx status.
        if ((error as { statusCode?: number }).statusCode) throw error;
        throw new HttpError(
          400,
          'VALIDATION_FAILED',
          `file: The multipart body is malformed (${String(error)})`,
        );
      });
      if (!part || part.fieldname !== 'file') {
        part?.file.resume();
        throw new HttpError(400, 'VALIDATION_FAILED', 'file: Choose a file to upload');
      }
      // Text fields sent before the file are parsed with it: the same rule as every other string (issue 10).
      try {
        for (const field of Object.values(part.fields).flat()) {
          if (field?.type !== 'field') continue;
          assertStorableText(field.fieldname, 'field name');
          assertStorableText(field.value, field.fieldname);
        }
      } catch (error) {
        part.file.resume();
        throw error;
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
      const file = upload ? await app.storage.open(upload.storageKey) : null;
      if (!upload || !file) throw notFound('File not found or link expired');
      return reply
        .type(upload.mimeType)
        .header('content-length', upload.size)
        .header(
          'content-disposition',
          contentDisposition(upload.originalName, { type: download ? 'attachment' : 'inline' }),
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=300')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file);
    },
  );
}

/**
 * Who the upload is for. With `?formId=` it is a customer's file for that form, which must be open and ask for a
 * file. Without it, a valid owner token makes it a profile document (claimed by PUT /api/userForm); anything else,
 * no token or one that is garbage or expired, is an anonymous upload as the original customer page makes it, claimed
 * by the submission that names it or swept after 24 hours.
 */
async function uploaderOf(
  request: FastifyRequest,
  formId: string | undefined,
  options: UploadRoutesOptions,
): Promise<{ formId: string | null; ownerId: string | null }> {
  if (formId) {
    const status = await options.formStatus(formId);
    if (status === 'missing') throw notFound('Form not found');
    if (typeof status === 'object') throw formClosed(status.closedMessage);
    if (status === 'no-file-question') {
      throw new HttpError(400, 'VALIDATION_FAILED', 'formId: This form does not ask for a file');
    }
    return { formId, ownerId: null };
  }
  if (readToken(request.headers.authorization)) {
    await authenticate(request).catch((error: unknown) => {
      if (!(error instanceof HttpError && error.statusCode === 401)) throw error;
    });
  }
  return { formId: null, ownerId: request.owner?.id ?? null };
}
