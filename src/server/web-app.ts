import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FormParamsSchema, type PublicForm } from '#common/forms.ts';
import { CUSTOMER_PAGE, renderCustomerPage } from './customer-page.ts';
import { notFound } from './errors.ts';
import { setCustomerPolicy } from './security-headers.ts';

export type WebAppDeps = {
  /** What GET /api/publicForm/{fid} answers, or null for an unknown form. */
  findPublicForm: (formId: string) => Promise<PublicForm | null>;
  /** Counts one open of the form's public page (a number per form and day, nothing about the visitor). */
  formOpened: (formId: string) => void;
};

/** A malformed escape (`%E0%A4%A`) is no form id, not a server error. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}

/** Sends a page made for this request, compressed on the fly (it cannot be precompressed at build time). */
function sendHtml(request: FastifyRequest, reply: FastifyReply, html: string) {
  const accepts = String(request.headers['accept-encoding'] ?? '');
  reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-cache');
  reply.header('vary', 'accept-encoding');
  if (/\bbr\b/.test(accepts)) {
    const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}

/**
 * Serves the built React app: hashed assets cached for a year, the customer's pages from customer.html (with the
 * form in it for a customer link), everything else index.html so the client router can answer. Unknown paths
 * under /api stay JSON 404s.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string | undefined,
  deps: WebAppDeps,
): Promise<void> {
  const hasWebApp = webDir !== undefined && existsSync(join(webDir, 'index.html'));
  const hasCustomerPage = webDir !== undefined && existsSync(join(webDir, 'customer.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each asset (vite.config.ts); browsers get the smallest they accept.
      preCompressed: true,
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes(`${join(webDir, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      !hasWebApp ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      throw notFound(`No route ${request.method} ${path}`);
    }
    const customer = hasCustomerPage ? CUSTOMER_PAGE.exec(path) : null;
    if (!customer) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    const fid = FormParamsSchema.safeParse({ fid: safeDecode(customer[1] ?? '') });
    const form = fid.success ? await deps.findPublicForm(fid.data.fid) : null;
    // /preview, /fileUpload and a link to no form: the page fetches what it needs (and says the form is gone).
    if (!form) return reply.header('cache-control', 'no-cache').sendFile('customer.html');
    if (request.method === 'GET') deps.formOpened(form._id);
    const template = await readFile(join(webDir ?? '', 'customer.html'), 'utf8');
    const page = renderCustomerPage(template, form);
    setCustomerPolicy(reply, page.styles);
    return sendHtml(request, reply, page.html);
  });
}
