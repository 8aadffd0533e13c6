import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FALLBACK_TEMPLATE, inlineStylesheets, type CustomerPage } from './customer-page.ts';
import { setCustomerPolicy } from './security-headers.ts';

const templates = new Map<string, Promise<string>>();

/**
 * The built customer.html with its stylesheets inlined, or a bare page when the app was not built (tests, an API-only
 * install). Read once per web directory: the build does not change under a running server.
 */
export function readCustomerTemplate(webDir: string | undefined): Promise<string> {
  if (!webDir) return Promise.resolve(FALLBACK_TEMPLATE);
  let template = templates.get(webDir);
  if (!template) {
    template = readFile(join(webDir, 'customer.html'), 'utf8').then(
      (html) =>
        inlineStylesheets(html, (name) => {
          try {
            return readFileSync(join(webDir, 'assets', name), 'utf8');
          } catch {
            return null;
          }
        }),
      () => FALLBACK_TEMPLATE,
    );
    templates.set(webDir, template);
  }
  return template;
}

/**
 * Sends a page made for this request, compressed on the fly (it cannot be precompressed at build time). Private and
 * revalidated: a form page carries a one-time token, which no shared cache may hand to a second customer.
 */
export function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'private, no-cache');
  reply.header('vary', 'accept-encoding');
  if (/\bbr\b/.test(accepts)) {
    const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}

/** A customer page with its status, under the customer policy that allows exactly its inline styles. */
export function sendCustomerPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  page: CustomerPage,
) {
  setCustomerPolicy(reply, page.styles, page.scripts);
  return sendHtml(request, reply.code(status), page.html);
}
