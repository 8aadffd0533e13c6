import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FormParamsSchema } from '#common/forms.ts';
import {
  CreatedWebhookSchema,
  DeletedWebhookSchema,
  DeliveryAttemptsSchema,
  DeliveryParamsSchema,
  MAX_WEBHOOKS_PER_FORM,
  NewWebhookSchema,
  ResentDeliverySchema,
  RotatedSecretSchema,
  TestDeliverySchema,
  WebhookListSchema,
  WebhookParamsSchema,
} from '#common/webhooks.ts';
import { authenticate, ownerOf } from '../../http/auth.ts';
import { networkOf } from '../../http/client-address.ts';
import { newSecret } from '../../http/crypto.ts';
import { HttpError, notFound, waitWords } from '../../http/errors.ts';
import { refusalOf } from './address.ts';
import type { WebhookRouteDeps } from './deps.ts';
import {
  addWebhook,
  deleteWebhook,
  findDelivery,
  findWebhookOfOwner,
  listAttempts,
  listWebhooks,
  ownsForm,
  resendDelivery,
  setWebhookSecret,
  type WebhookKey,
} from './repository.ts';
import { refusedAttempt, sendSigned } from './send-signed.ts';

const formNotFound = () => notFound('Form not found');
const webhookNotFound = () => notFound('Webhook not found');
const deliveryNotFound = () => notFound('Delivery not found');
/** The same generator for a new webhook and a rotated secret. */
const newWebhookSecret = () => `whsec_${newSecret()}`;

/** The owner's webhooks of one form (docs/decisions/023-webhooks.md). */
/** How long adding a webhook waits for its name to resolve. */
const ADD_LOOKUP_MS = 3000;
const refusalWithin = (url: URL, ms: number) =>
  Promise.race([refusalOf(url), new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

export async function webhookRoutes(app: FastifyInstance, deps: WebhookRouteDeps): Promise<void> {
  app.addHook('onRequest', authenticate);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const keyOf = (request: FastifyRequest, params: { fid: string; webhookId: string }): WebhookKey => ({
    ownerId: ownerOf(request).id,
    formId: params.fid,
    webhookId: params.webhookId,
  });
  /** The 404 that names what is missing: the webhook (or its form, which looks the same) or the delivery. */
  const missing = async (key: WebhookKey) =>
    (await findWebhookOfOwner(app.db, key)) ? deliveryNotFound() : webhookNotFound();
  const perOwner = app.config.rateLimits.webhookTestPerOwner;
  const testLimit = app.rateLimit({
    max: perOwner.max,
    timeWindow: perOwner.windowMs,
    keyGenerator: (request) => `webhookTest:${request.owner?.id ?? networkOf(request.ip)}`,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Too many test deliveries in a short time. Wait ${waitWords(context.ttl / 1000)} and send another.`,
    }),
  });

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
      const secret = newWebhookSecret();
      const { url } = request.body;
      // A receiver every delivery would be refused for is refused now, not retried for a day. A name that cannot be
      // resolved yet (or not within the deadline) is taken: it may resolve by the first delivery.
      const refusal = deps.allowPrivate ? null : await refusalWithin(new URL(url), ADD_LOOKUP_MS);
      if (refusal?.permanent) {
        if (!(await ownsForm(app.db, ownerOf(request).id, request.params.fid))) throw formNotFound();
        throw new HttpError(400, 'VALIDATION_FAILED', `url: ${refusal.reason}`);
      }
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
      if (!(await deleteWebhook(app.db, ownerOf(request).id, fid, webhookId))) throw webhookNotFound();
      return { deleted: true as const };
    },
  );

  api.get(
    '/api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId',
    { schema: { params: DeliveryParamsSchema, response: { 200: DeliveryAttemptsSchema } } },
    async (request) => {
      const key = keyOf(request, request.params);
      const delivery = await findDelivery(app.db, key, request.params.deliveryId);
      if (!delivery) throw await missing(key);
      return { delivery, attempts: await listAttempts(app.db, delivery.id) };
    },
  );

  // Sent at once and answered with its attempt; not a delivery: not logged, not retried.
  api.post(
    '/api/formWebhooks/:fid/:webhookId/test',
    {
      schema: { params: WebhookParamsSchema, response: { 200: TestDeliverySchema } },
      preHandler: testLimit,
    },
    async (request) => {
      const hook = await findWebhookOfOwner(app.db, keyOf(request, request.params));
      const example = hook && (await deps.sources.exampleSubmission(app.db, request.params.fid));
      if (!hook || !example) throw webhookNotFound();
      const url = new URL(hook.url);
      const at = new Date().toISOString();
      const body = JSON.stringify({ event: 'webhook.test', deliveryId: 'test', ...example });
      const attempt =
        (await refusedAttempt(url, deps)) ?? (await sendSigned(url, hook.secret, body, 'test', deps));
      return { attempt: { at, ...attempt } };
    },
  );

  api.post(
    '/api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId/resend',
    { schema: { params: DeliveryParamsSchema, response: { 201: ResentDeliverySchema } } },
    async (request, reply) => {
      const key = keyOf(request, request.params);
      const resent = await app.db.transaction((tx) => resendDelivery(tx, key, request.params.deliveryId));
      if (resent === 'not failed')
        throw new HttpError(409, 'VALIDATION_FAILED', 'Only a failed delivery can be resent');
      if (!resent) throw await missing(key);
      deps.nudgeSender();
      reply.code(201);
      return { delivery: resent };
    },
  );

  api.post(
    '/api/formWebhooks/:fid/:webhookId/secret',
    { schema: { params: WebhookParamsSchema, response: { 200: RotatedSecretSchema } } },
    async (request) => {
      const secret = newWebhookSecret();
      if (!(await setWebhookSecret(app.db, keyOf(request, request.params), secret))) throw webhookNotFound();
      return { secret };
    },
  );
}
