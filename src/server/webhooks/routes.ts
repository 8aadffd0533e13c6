import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FormParamsSchema } from '#common/forms.ts';
import {
  CreatedWebhookSchema,
  DeletedWebhookSchema,
  MAX_WEBHOOKS_PER_FORM,
  NewWebhookSchema,
  WebhookListSchema,
  WebhookParamsSchema,
} from '#common/webhooks.ts';
import { authenticate, ownerOf } from '../auth.ts';
import { newSecret } from '../crypto.ts';
import { HttpError, notFound } from '../errors.ts';
import { addWebhook, deleteWebhook, listWebhooks, ownsForm } from './repository.ts';

const formNotFound = () => notFound('Form not found');

/** The owner's webhooks of one form (docs/decisions/023-webhooks.md). */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/formWebhooks/:fid',
    { schema: { params: FormParamsSchema, response: { 200: WebhookListSchema } } },
    async (request) => {
      const { fid } = request.params;
      if (!(await ownsForm(app.db, ownerOf(request).id, fid))) throw formNotFound();
      return { webhooks: await listWebhooks(app.db, fid) };
    },
  );

  api.post(
    '/api/formWebhooks/:fid',
    {
      schema: {
        params: FormParamsSchema,
        body: NewWebhookSchema,
        response: { 201: CreatedWebhookSchema },
      },
    },
    async (request, reply) => {
      const id = randomUUID();
      const secret = `whsec_${newSecret()}`;
      const { url } = request.body;
      const added = await app.db.transaction((tx) =>
        addWebhook(
          tx,
          { id, ownerId: ownerOf(request).id, formId: request.params.fid, url, secret },
          MAX_WEBHOOKS_PER_FORM,
        ),
      );
      if (!added) throw formNotFound();
      if (added === 'full')
        throw new HttpError(
          400,
          'VALIDATION_FAILED',
          `A form can have at most ${MAX_WEBHOOKS_PER_FORM} webhooks: delete one first`,
        );
      reply.code(201);
      return { id, url, secret, createdAt: added.createdAt.toISOString(), deliveries: [] };
    },
  );

  api.delete(
    '/api/formWebhooks/:fid/:webhookId',
    { schema: { params: WebhookParamsSchema, response: { 200: DeletedWebhookSchema } } },
    async (request) => {
      const { fid, webhookId } = request.params;
      if (!(await deleteWebhook(app.db, ownerOf(request).id, fid, webhookId)))
        throw notFound('Webhook not found');
      return { deleted: true as const };
    },
  );
}
