import type { FastifyRequest } from 'fastify';

// Query parameters that are secrets: the verification link's token and a signed file URL's signature.
const SECRET_QUERY = /([?&](?:token|s)=)[^&#]*/gi;

/** Fastify's request log fields, with secrets in the URL blanked so a log reader cannot follow the link. */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(SECRET_QUERY, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
