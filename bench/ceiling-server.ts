// The no-database ceiling (issue 14): the submission route's request pipeline without storing anything. It composes
// the real pieces from src/server (the route's params, headers, body and response schemas, the app-wide hooks, the
// answer validation the writer runs and the row it would store) and answers the id instead of writing the row.
// Usage: node --import tsx bench/ceiling-server.ts <port> <form.json> (the Form as POST /api/importForm answered it).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import type { Form } from '#common/forms.ts';
import { acceptedRow } from '../src/server/features/submissions/ingest/accepted-row.ts';
import { fileAnswersOf, judgeSubmission } from '../src/server/features/submissions/ingest/answers.ts';
import { submitRouteOptions } from '../src/server/features/submissions/ingest/routes.ts';
import {
  formClosed,
  HttpError,
  refuseUnstorableText,
  registerErrorHandler,
} from '../src/server/http/errors.ts';
import { requestForLog } from '../src/server/http/request-log.ts';
import { securityHeaders } from '../src/server/http/security-headers.ts';

const port = Number(process.argv[2] ?? 0);
const form = JSON.parse(await readFile(process.argv[3] ?? '', 'utf8')) as Form;
const publicUrl = `http://127.0.0.1:${port}`;
const timeZone = 'UTC';

// As buildApp sets them up (src/server/app.ts), at the bench server's LOG_LEVEL.
const setSecurityHeaders = securityHeaders(publicUrl);
const app = Fastify({
  logger: { level: 'warn', serializers: { req: requestForLog } },
  bodyLimit: 64 * 1024,
  requestTimeout: 0,
});
registerErrorHandler(app);
app.addHook('onRequest', async (request, reply) => setSecurityHeaders(request, reply));
app.removeContentTypeParser('text/plain');
app.setValidatorCompiler(validatorCompiler);
app.addHook('preValidation', refuseUnstorableText);
app.setSerializerCompiler(serializerCompiler);
// In memory, as on the embedded engine; the bench raises the per-IP limit as it does for the app (RATE_LIMITS).
await app.register(rateLimit, { global: false });
const submitLimit = app.rateLimit({
  max: 1_000_000,
  timeWindow: 60_000,
  keyGenerator: (r) => `submit:${r.ip}`,
});

app
  .withTypeProvider<ZodTypeProvider>()
  .post('/api/forms/:ownerId', submitRouteOptions(submitLimit), async (request) => {
    // What submissions/ingest/submitter.ts does for each submission of a batch, with the form from memory as its cache gives it.
    const { body } = request;
    // A filled honeypot is answered like a success and dropped (submissions/ingest/submitter.ts).
    if (body[HONEYPOT_FIELD]?.trim()) return { _id: randomUUID() };
    if (body.formStructureId !== form._id) throw new HttpError(404, 'NOT_FOUND', 'No such form');
    if (form.ownerIdAsStructureId !== request.params.ownerId) {
      throw new HttpError(400, 'VALIDATION_FAILED', 'ownerId: This link does not match the form');
    }
    const closed = closedReasonOf(form, new Date());
    if (closed) throw formClosed(closedMessageOf(form.settings, closed, timeZone));
    const judged = judgeSubmission(form, body);
    const { row } = acceptedRow(
      form,
      null,
      judged,
      fileAnswersOf(form, judged.answers),
      new Map(),
      request.headers[IDEMPOTENCY_HEADER],
    );
    // The writer serialises the batch's rows as its insert statement's parameter: that much of the write is kept.
    void JSON.stringify([row]);
    return { _id: row.id };
  });

await app.listen({ port, host: '127.0.0.1' });
console.log('listening');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close());
