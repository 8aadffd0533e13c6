// The Fastify instance and the plumbing every request goes through, before any route: ids, logs, security headers,
// body limits and rates, the one error handler and the validators. app.ts adds the stores, the features and the
// pages.
import { maxHeaderSize } from 'node:http';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Database } from '../db/database.ts';
import { getOrCreateSetting } from '../db/settings.ts';
import { unreadableAddressHandler } from '../pages/web-app.ts';
import type { Config } from '../runtime/config.ts';
import { enforceBodyRate } from './body-rate.ts';
import { trustProxyOf } from './client-address.ts';
import { newKey } from './crypto.ts';
import { answerClientError, refuseUnstorableText, registerErrorHandler } from './errors.ts';
import { guardJsonBodies } from './json-guard.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';
import { REQUEST_ID_HEADER, requestIds } from './request-id.ts';
import { requestForLog } from './request-log.ts';
import { recordRoutes } from './route-table.ts';
import { securityHeaders } from './security-headers.ts';

const JSON_BODY_LIMIT = 64 * 1024;

/** The app's Fastify instance with its plumbing, without stores or routes yet. */
export function createServer(config: Config): FastifyInstance {
  const setSecurityHeaders = securityHeaders(config.publicUrl);
  const app = Fastify({
    // Ids unique across workers, restarts and machines, or the caller's X-Request-Id (request-id.ts).
    genReqId: requestIds(),
    logger: {
      level: config.logLevel,
      ...(config.logStream ? { stream: config.logStream } : {}),
      serializers: { req: requestForLog },
    },
    // An address the router cannot read (a malformed escape, a segment past maxParamLength below): web-app.ts.
    frameworkErrors: unreadableAddressHandler(config.webDir, setSecurityHeaders),
    // Route params are ids (uuids, 43-character upload keys). One longer than find-my-way's default 100 used to miss
    // its route: the answer was the router's (a "No route" 404, the page fallback for a GET), or a guess in the
    // not-found handler, which cannot know the route meant. Raised, it reaches its route, whose own schema answers as
    // for any other bad id (400 `fid: Not a valid form id`; for a customer link, its page's 404). A limit stays: no
    // param outgrows the request line, which Node refuses past maxHeaderSize (16 KiB: answerClientError's 431), and
    // no route declares a regex param, whose backtracking the default bounds. Past it (only inject() can send one),
    // frameworkErrors above answers.
    routerOptions: { maxParamLength: maxHeaderSize },
    // A request that is not valid HTTP (a broken chunk, headers too large): our error body and headers too.
    clientErrorHandler: answerClientError,
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: trustProxyOf(config.trustProxy),
    // No total time limit: a slow but steady upload may take as long as it needs; enforceBodyRate cuts a stalled or
    // trickling one (issue 10). Node's headersTimeout (60 s) still bounds a client that never finishes its headers.
    requestTimeout: 0,
    // A request still arriving when the server stops listening is answered, not refused (docs/decisions/039).
    return503OnClosing: false,
  });
  enforceBodyRate(app, {
    minBytesPerSecond: config.bodyMinBytesPerSecond,
    windowMs: config.bodyRateWindowMs,
  });
  guardJsonBodies(app);

  // Before any route, so the table is complete: the access matrix and fuzz tests read it (route-table.ts).
  recordRoutes(app);
  registerErrorHandler(app);
  app.addHook('onRequest', async (request, reply) => {
    setSecurityHeaders(request, reply);
    // The id the log lines of this request carry, for a caller or a proxy to quote.
    reply.header(REQUEST_ID_HEADER, request.id);
  });
  // The API speaks JSON (and multipart for uploads); a text body is a client mistake answered with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  // One rule for every route: text PostgreSQL cannot store is refused before any schema or handler sees it.
  app.addHook('preValidation', refuseUnstorableText);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}

/** The rate limits' store, registered once the database is open (the limits themselves are per route). */
export async function registerRateLimits(app: FastifyInstance, db: Database): Promise<void> {
  // Limits are applied per route (accounts/routes.ts), per address and per email. On PostgreSQL they are counted in
  // the database, so they hold across every process (docs/scaling.md); the embedded engine has one process.
  await app.register(rateLimit, {
    global: false,
    ...(db.kind === 'postgres'
      ? { store: databaseRateLimitStore(db, await getOrCreateSetting(db, 'rate_limit_key', newKey)) }
      : {}),
  });
}
