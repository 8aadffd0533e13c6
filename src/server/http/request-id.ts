import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming X-Request-Id honoured as the request's id: what proxies and tracers send (a UUID, hex, base64url,
 * `Root=1-…`), and nothing that could pass for more than one token in a log line (spaces, quotes, control
 * characters) or fill it (past 128 characters). Anything else is replaced by our own id, never logged.
 */
const WELL_FORMED = /^[\w.:=+/-]{1,128}$/;

/**
 * Fastify's `genReqId`: the caller's well-formed X-Request-Id, or a random prefix of this process (48 bits) and a
 * counter, so ids never repeat across the workers of a machine, its restarts and its machines, as `req-1` did.
 */
export function requestIds(): (request: IncomingMessage) => string {
  const prefix = randomBytes(6).toString('base64url');
  let counter = 0;
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    if (typeof given === 'string' && WELL_FORMED.test(given)) return given;
    counter += 1;
    return `${prefix}-${counter.toString(36)}`;
  };
}
