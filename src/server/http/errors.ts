import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { FORM_CLOSED_MESSAGE } from '#common/answer-limits.ts';
import type { ErrorBody, ErrorCode } from '#common/errors.ts';
import { findUnstorableText } from '#common/unstorable-text.ts';
import { API_POLICY } from './security-headers.ts';
import { UNAVAILABLE_RETRY_SECONDS, unavailableOf, type Unavailable } from './unavailable.ts';

/** Anything the server rejects on purpose. The single error handler turns it into the JSON error body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (message = 'Not found') => new HttpError(404, 'NOT_FOUND', message);

/**
 * How long a refused client should wait, rounded up, in words a customer reads: "a minute", "12 minutes", "an hour",
 * "75 minutes", "3 hours" (whole hours from two on, so that a wait is never overstated by more than an hour in two).
 */
export function waitWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes === 1) return 'a minute';
  if (minutes === 60) return 'an hour';
  if (minutes < 120) return `${minutes} minutes`;
  return `${Math.ceil(minutes / 60)} hours`;
}

/**
 * A form that takes nothing now (closed by its owner, not open yet, past its closing time or full): the link still
 * works, so 410 Gone, not 404. The message is the owner's closed message when set (common/form-gate.ts).
 */
export const formClosed = (message = FORM_CLOSED_MESSAGE) => new HttpError(410, 'FORM_CLOSED', message);

/** 400 naming the field when `value` holds text that cannot be stored (NUL, an unpaired surrogate). */
export function assertStorableText(value: unknown, where = ''): void {
  const found = findUnstorableText(value, where);
  if (found) throw new HttpError(400, 'VALIDATION_FAILED', `${found.path || 'body'}: ${found.reason}`);
}

/**
 * No body of ours nests deeper than a few levels, but JSON.parse accepts 30,000 (a 64 KiB body of `[`s), and any
 * recursive walk over that (ours, zod's, a serialiser's) runs out of stack: a 500. Checked without recursion.
 */
export const MAX_JSON_DEPTH = 32;

export function isNestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    if (node === null || typeof node !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/** preValidation hook shared by every route: params, query string and JSON body. */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  // The built app's files and pages (the static wildcard route, whose misses are the pages: web-app.ts) read
  // nothing of the address but a file's path or a form's id, which they check themselves; a NUL in a link's
  // tracking parameter is no reason to answer JSON instead of the page.
  if (request.is404 || request.routeOptions.url === '/*') return;
  if (isNestedDeeperThan(request.body, MAX_JSON_DEPTH)) {
    throw new HttpError(400, 'VALIDATION_FAILED', `body: nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  assertStorableText(request.params);
  assertStorableText(request.query);
  assertStorableText(request.body);
}

const body = (code: ErrorCode, message: string): ErrorBody => ({ error: { code, message } });

const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: 'The request body is not valid JSON',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', message: 'The request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message:
      'Send the request body as application/json (a file: as multipart/form-data, in the field "file")',
  },
  // @fastify/multipart's limits (its own words are "reach parts limit" and the like).
  FST_PARTS_LIMIT: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request has too many parts: send the file alone, in the field "file"',
  },
  FST_FILES_LIMIT: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'Send one file a request' },
  FST_FIELDS_LIMIT: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request has too many text fields: send the file alone, in the field "file"',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'MALFORMED_JSON',
    message: 'The request body does not match its Content-Length',
  },
};

/** What a customer reads while a service the app depends on is away (unavailable.ts). */
export const UNAVAILABLE_MESSAGE = 'We cannot take or show anything right now: please try again in a minute.';

/** The log's one line for a request answered 503 because `away` is away: what failed, no stack. */
export function logUnavailable(request: FastifyRequest, away: Unavailable): void {
  request.log.warn(
    { service: away.service, reason: away.reason },
    `${away.service} unavailable: ${away.reason}; answered 503`,
  );
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    // Answered before its body has all arrived (an upload refused, or failed in the storage, mid-file): the rest of
    // the body would sit in the connection, unread, and a next request on it would never be read. Close it.
    if (!request.raw.complete) reply.header('connection', 'close');
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send(body(error.code, error.message));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issue = error.validation[0];
      const field = issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
      const message = issue?.message ?? 'Invalid request';
      return reply.code(400).send(body('VALIDATION_FAILED', field ? `${field}: ${message}` : message));
    }
    // A path the static files refuse to look up (`..`, a NUL, `//`) is no file: the pages answer it (web-app.ts),
    // so a customer link with one gets the page that says so, not JSON.
    if (error.code === 'FST_STATIC_FORBIDDEN_PATH') return reply.callNotFound();
    const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.code(known.status).send(body(known.code, known.message));
    if (error.statusCode === 429) {
      return reply.code(429).send(body('RATE_LIMITED', error.message));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return reply.code(error.statusCode).send(body('VALIDATION_FAILED', error.message));
    }
    const away = unavailableOf(error);
    if (away) {
      logUnavailable(request, away);
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_SECONDS))
        .send(body('UNAVAILABLE', UNAVAILABLE_MESSAGE));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply
      .code(500)
      .send(body('INTERNAL', `Something went wrong on our side. Reference: ${request.id}`));
  });
}

/**
 * Fastify's `clientErrorHandler`: what a request that is not valid HTTP gets (a broken chunk, a Content-Length the
 * body contradicts, headers over Node's 16 KiB), answered by Node before any route or hook. Our error body and the
 * headers every API answer has, instead of Fastify's `{"error":"Bad Request","message":"Client Error"}` bare.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, answer] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          body('VALIDATION_FAILED', 'The request headers are too large'),
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', body('VALIDATION_FAILED', 'The request took too long to arrive')]
        : [400, 'Bad Request', body('VALIDATION_FAILED', 'The request is not valid HTTP')];
  const json = JSON.stringify(answer);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\n` +
        `Content-Security-Policy: ${API_POLICY}\r\nX-Content-Type-Options: nosniff\r\n` +
        `X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(error);
}
