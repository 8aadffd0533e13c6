import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HAS_SESSION_MARK } from '#common/session-mark.ts';
import { landingPolicy, setCustomerPolicy } from '../http/security-headers.ts';
import {
  deferEntry,
  FALLBACK_TEMPLATE,
  inlineStylesheets,
  templateScripts,
  templateStyles,
  type CustomerPage,
} from './customer-page.ts';

const templates = new Map<string, Promise<string>>();

/**
 * A built page (customer.html, landing.html) with its stylesheets inlined, or `fallback` when it cannot be read (the
 * app was not built: tests, an API-only install). Read once per web directory: the build does not change under a
 * running server.
 */
function readPageTemplate(webDir: string, file: string, fallback: string): Promise<string> {
  const path = join(webDir, file);
  let template = templates.get(path);
  if (!template) {
    template = readFile(path, 'utf8').then(
      (html) =>
        inlineStylesheets(html, (name) => {
          try {
            return readFileSync(join(webDir, 'assets', name), 'utf8');
          } catch {
            return null;
          }
        }),
      () => fallback,
    );
    templates.set(path, template);
  }
  return template;
}

/** The built customer.html, its stylesheets inlined (FALLBACK_TEMPLATE without a build). */
export const readCustomerTemplate = (webDir: string | undefined): Promise<string> =>
  webDir ? readPageTemplate(webDir, 'customer.html', FALLBACK_TEMPLATE) : Promise.resolve(FALLBACK_TEMPLATE);

/**
 * Sends a page made for this request, compressed on the fly (it cannot be precompressed at build time). Private and
 * revalidated, unless the route said otherwise (a draft's page is never kept): a form page carries a one-time token,
 * which no shared cache may hand to a second customer.
 */
export function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', 'text/html; charset=utf-8');
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
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

/**
 * '/' as the build drew it (landing.html, docs/decisions/033-landing-page-drawn-at-build.md): its stylesheets inlined,
 * so it paints from the first response, and the app's script started at the visitor's first touch (its links and
 * menu work without it); under the page policy that allows exactly its inline texts. An owner's browser, which shows
 * nothing of it, starts the app at once.
 */
export async function sendLandingPage(request: FastifyRequest, reply: FastifyReply, webDir: string) {
  const template = await readPageTemplate(webDir, 'landing.html', '');
  if (!template) return reply.header('cache-control', 'no-cache').sendFile('index.html');
  let page = landingPages.get(template);
  if (!page) {
    const deferred = deferEntry(template, { on: 'first-touch', nowIf: HAS_SESSION_MARK });
    const scripts = [...templateScripts(template), ...(deferred.script ? [deferred.script] : [])];
    page = { html: deferred.template, policy: landingPolicy(templateStyles(template), scripts) };
    landingPages.set(template, page);
  }
  reply.header('content-security-policy', page.policy);
  return sendHtml(request, reply, page.html);
}
const landingPages = new Map<string, { html: string; policy: string }>();
