import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import { FormParamsSchema, PublicFormSchema, toPublicForm } from '#common/forms.ts';
import { SubmissionBodySchema, SubmitResponseSchema } from '#common/submissions.ts';
import { networkOf } from '../../../http/client-address.ts';
import { formClosed, HttpError } from '../../../http/errors.ts';
import type { FileIntake, SubmissionDeps } from '../deps.ts';
import { htmlSubmissionRoutes, tooManyResponses } from '../no-script/routes.ts';
import { SUBMISSION_BODY_LIMIT } from './body-limit.ts';
import { createSubmitter } from './submitter.ts';

export const OwnerParamsSchema = z.object({ ownerId: z.uuid({ error: 'Not a valid owner id' }) });
export const IdempotencyHeadersSchema = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .regex(/^[\w-]{8,100}$/, 'Send 8 to 100 letters, digits, - or _')
    .optional(),
});

/** The customer's submit route's schema and limits, for this file and the bench's ceiling server alike. */
export const submitRouteOptions = (submitLimit: onRequestHookHandler) => ({
  schema: {
    params: OwnerParamsSchema,
    headers: IdempotencyHeadersSchema,
    body: SubmissionBodySchema,
    response: { 200: SubmitResponseSchema },
  },
  // Counted before the body is read, so a client over its limit cannot make us buffer and parse large bodies.
  onRequest: submitLimit,
  bodyLimit: SUBMISSION_BODY_LIMIT,
});

/**
 * The customer's side (docs/product.md, API): public, no token. The form page posted without JavaScript
 * shares the submitter (one group commit, one idempotency rule) and the per-address limit.
 */
export async function publicSubmissionRoutes(
  app: FastifyInstance,
  deps: SubmissionDeps,
  intake: FileIntake,
): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const submit = createSubmitter(deps);
  const perIp = (name: 'submissionsPerIp' | 'pageStepsPerIp', prefix: string) =>
    app.rateLimit({
      max: app.config.rateLimits[name].max,
      timeWindow: app.config.rateLimits[name].windowMs,
      keyGenerator: (r) => `${prefix}:${networkOf(r.ip)}`,
      // The customer's page shows the message: say how long to wait, not the plugin's "Rate limit exceeded".
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `${tooManyResponses(context.ttl / 1000)} and send your answers again.`,
      }),
    });
  const submitLimit = perIp('submissionsPerIp', 'submit');
  const limits = { submit: submitLimit, step: perIp('pageStepsPerIp', 'step') };

  // Its own scope: multipart bodies are read only there, the JSON submit keeps answering them 415.
  await app.register(async (scope) => htmlSubmissionRoutes(scope, { ...deps, submit, intake }, limits));

  api.get(
    '/api/publicForm/:fid',
    { schema: { params: FormParamsSchema, response: { 200: PublicFormSchema } } },
    async (request) => {
      const form = await deps.forms.find(request.params.fid);
      if (!form) throw new HttpError(404, 'NOT_FOUND', 'This form does not exist or was deleted');
      const closed = closedReasonOf(form, new Date(), form.responseCount);
      if (closed) throw formClosed(closedMessageOf(form.settings, closed, deps.timeZone));
      // Our own page asks for the form only after its link page was drawn, and counted, by the server: on /preview
      // after a reload or on the way back from /fileUpload, the same visit. Any other client's open counts here.
      const isOwnPage = request.headers['sec-fetch-site'] === 'same-origin';
      if (request.method === 'GET' && !isOwnPage) deps.formOpened(form._id);
      return toPublicForm(form);
    },
  );

  api.post('/api/forms/:ownerId', submitRouteOptions(submitLimit), async (request) => {
    const id = await submit({
      ownerId: request.params.ownerId,
      body: request.body,
      idempotencyKey: request.headers[IDEMPOTENCY_HEADER] ?? null,
      isBot: Boolean(request.body[HONEYPOT_FIELD]?.trim()),
    });
    return { _id: id };
  });
}
