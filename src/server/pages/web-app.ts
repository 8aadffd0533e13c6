import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClosedFormLook } from '#common/closed-form.ts';
import type { ErrorBody } from '#common/errors.ts';
import { FormParamsSchema, type PublicForm } from '#common/forms.ts';
import { notFound } from '../http/errors.ts';
import { landingPolicy } from '../http/security-headers.ts';
import {
  CUSTOMER_PAGE,
  renderClosedPage,
  renderCustomerPage,
  renderMessagePage,
  withoutScripts,
} from './customer-page.ts';
import { readCustomerTemplate, sendCustomerPage, sendHtml, sendLandingPage } from './html-reply.ts';
import { linkValuesState } from './link-values-state.ts';
import { missingHtml, pageNotFoundHtml } from './message-html.ts';

/** What a customer link finds: the form to fill, a closed form's message, or nothing. */
export type CustomerForm = { form: PublicForm } | { closedMessage: string; look: ClosedFormLook } | null;

export type WebAppDeps = {
  /**
   * The form as GET /api/publicForm/{fid} answers it, what it says when closed, or null for an unknown form or one
   * whose owner is not `ownerId` (the link's second part, which its page posts to and the post checks).
   */
  findCustomerForm: (formId: string, ownerId: string) => Promise<CustomerForm>;
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

const hasBuiltApp = (webDir: string | undefined): webDir is string =>
  webDir !== undefined && existsSync(join(webDir, 'index.html'));

/**
 * Whether an address the router could not read is a person's page rather than the API's: not under /api, nor under
 * /files/ (the signed file links, whose own refusals are JSON: `/files/x` is a 400 naming `uploadId`), and asked for
 * as a browser asks for a page: GET or HEAD, a customer link (whose POST, the form sent without JavaScript, answers
 * pages too), or an Accept that names text/html (a navigation does; fetch() and the API client do not).
 */
function isPageRequest(request: FastifyRequest, path: string): boolean {
  if (path === '/api' || path.startsWith('/api/') || path.startsWith('/files/')) return false;
  if (['GET', 'HEAD'].includes(request.method) || /^\/customer\//i.test(path)) return true;
  return String(request.headers.accept ?? '').includes('text/html');
}

/**
 * What a page address the router cannot read gets (Fastify's `frameworkErrors`, app.ts): a percent-escape that is
 * not UTF-8 (`/customer/%ED%A0%80/x`), or a segment longer than the router reads. The page that says nothing is
 * here, drawn without a script (there is nothing for one to take over), under the same policies as the other pages:
 * a customer link's may be framed, any other page's may not. The status is 404, as the server-drawn page miss
 * already is (a customer link to no form): the address names nothing we have, and a 404 tells a crawler so, where
 * a 400 would say the client is broken. Resolves false, having sent nothing, when the answer is the API's JSON
 * (an API path, a fetch, or no built app to draw pages with: an API-only install answers every miss with JSON).
 */
export function answerUnreadableAddress(
  webDir: string | undefined,
): (request: FastifyRequest, reply: FastifyReply) => Promise<boolean> {
  const hasWebApp = hasBuiltApp(webDir);
  return async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (!hasWebApp || !isPageRequest(request, path)) return false;
    const template = withoutScripts(await readCustomerTemplate(webDir));
    if (CUSTOMER_PAGE.test(path)) {
      sendCustomerPage(request, reply, 404, renderMessagePage(template, 'Form not found', missingHtml()));
      return true;
    }
    const page = renderMessagePage(template, 'Page not found', pageNotFoundHtml());
    // The app's page policy with this page's inline styles allowed, as the landing page's has.
    reply.header('content-security-policy', landingPolicy(page.styles, []));
    sendHtml(request, reply.code(404), page.html);
    return true;
  };
}

/**
 * Fastify's `frameworkErrors` (app.ts): an address the router cannot read is answered before any hook runs, a
 * malformed escape (`/%E0%A4%A`) or a segment longer than the router's maxParamLength. It gets the same headers; a
 * page's address gets our page that says nothing is there, the API's our error body.
 */
export function unreadableAddressHandler(
  webDir: string | undefined,
  setSecurityHeaders: (request: FastifyRequest, reply: FastifyReply) => void,
) {
  const answerPage = answerUnreadableAddress(webDir);
  return (error: { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    setSecurityHeaders(request, reply);
    // An id longer than any id names nothing: the 404 of an unknown id, as the route would have answered.
    const [status, body]: [number, ErrorBody] =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [404, { error: { code: 'NOT_FOUND', message: 'Not found' } }]
        : [400, { error: { code: 'VALIDATION_FAILED', message: 'Not a valid address' } }];
    const json = () => void reply.code(status).send(body);
    answerPage(request, reply)
      .then((sent) => sent || json())
      .catch((err: unknown) => {
        request.log.error({ err }, 'unreadable address page failed');
        if (!reply.sent) json();
      });
  };
}

/**
 * Serves the built React app: hashed assets cached for a year, the customer's pages from customer.html (with the
 * form in it for a customer link), '/' from landing.html (the landing page drawn by the build), everything else
 * index.html so the client router can answer. Unknown paths
 * under /api stay JSON 404s.
 */
export async function registerWebApp(
  app: FastifyInstance,
  webDir: string | undefined,
  deps: WebAppDeps,
): Promise<void> {
  const hasWebApp = hasBuiltApp(webDir);
  const hasCustomerPage = webDir !== undefined && existsSync(join(webDir, 'customer.html'));
  const hasLandingPage = webDir !== undefined && existsSync(join(webDir, 'landing.html'));
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webDir,
      // One route for every file, looked up when asked for, instead of one route per built file registered at start
      // (a restart serves sooner, docs/decisions/031). A path that is not a file, `/` included, falls through to the
      // not-found handler below: the pages.
      wildcard: true,
      index: false,
      // Nor is a path no build writes (a NUL, longer than any file name): the pages answer it, not static's 403.
      allowedPath: (path) => !path.endsWith('/') && !path.includes('\0') && path.length <= 1024,
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
  // Lighthouse reads it; without it the SPA fallback answered HTML. Customer links are shared on purpose and owner
  // pages sit behind a login, so crawlers may read pages; the API and the signed file URLs are no pages.
  app.get('/robots.txt', async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send('User-agent: *\nDisallow: /api/\nDisallow: /files/\n'),
  );
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      // A hashed asset no build has (a page from before a deploy asking for its old chunk): not the app's page.
      path.startsWith('/assets/') ||
      !hasWebApp ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      throw notFound(`No route ${request.method} ${path}`);
    }
    const customer = hasCustomerPage ? CUSTOMER_PAGE.exec(path) : null;
    if (!customer) {
      // '/' as the build drew it, so the landing page paints before any script has run.
      if (path === '/' && hasLandingPage && webDir) return sendLandingPage(request, reply, webDir);
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    // /preview and /fileUpload: the page reads what it needs from the browser's storage, or fetches it.
    if (customer[1] === undefined) return reply.header('cache-control', 'no-cache').sendFile('customer.html');
    const fid = FormParamsSchema.safeParse({ fid: safeDecode(customer[1]) });
    // The owner part as the page will post it: a link whose owner part is not the form's finds no form, here as
    // on Submit, rather than a form that could never be sent.
    const ownerId = safeDecode(path.split('/')[3] ?? '').toLowerCase();
    const found = fid.success ? await deps.findCustomerForm(fid.data.fid, ownerId) : null;
    const template = await readCustomerTemplate(webDir);
    // Drawn in full on the server, so a closed or missing form reads the same with or without JavaScript; the
    // script that takes over fetches the form and shows its own copy of the same card.
    if (!found) {
      return sendCustomerPage(
        request,
        reply,
        404,
        renderMessagePage(template, 'Form not found', missingHtml()),
      );
    }
    if (!('form' in found)) {
      const page = renderClosedPage(template, found.look, found.closedMessage);
      return sendCustomerPage(request, reply, 200, page);
    }
    if (request.method === 'GET') deps.formOpened(found.form._id);
    // A fresh key per page drawn: sending this page twice (a double click, Back and Submit again) stores one
    // response (docs/decisions/024-form-without-javascript.md).
    // The link's hidden fields and prefilled answers (link-values-state.ts) are the page's first values.
    const state = {
      token: randomUUID(),
      values: linkValuesState(found.form, request.url.split('?')[1] ?? ''),
    };
    // The route's own spelling (a link may arrive as /CUSTOMER/… or with a trailing slash, which the route does not
    // match): the form's id and its owner's.
    const action = `/customer/${found.form._id}/${encodeURIComponent(ownerId)}`;
    const page = renderCustomerPage(template, found.form, { action, state, embed: true });
    return sendCustomerPage(request, reply, 200, page);
  });
}
