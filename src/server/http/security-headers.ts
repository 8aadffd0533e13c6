import type { FastifyReply, FastifyRequest } from 'fastify';
import helmet from 'helmet';
import { CUSTOMER_PAGE } from '../pages/customer-page.ts';
import { cspHashOf } from './crypto.ts';

type Directives = Record<string, string[]>;

/**
 * The app's own pages and assets (docs/decisions/014-security-headers.md). Everything comes from this origin and
 * nothing inline runs, so one injected tag cannot run script or lift the owner's token; default-src 'none' keeps
 * any kind of load we did not think of (objects, frames, media) refused.
 */
const PAGE_DIRECTIVES: Directives = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  // pdf.js runs its worker from the bundle's own file (responses/pdf-viewer.tsx).
  'worker-src': ["'self'"],
  // Stylesheets are files; React's style props go through the CSSOM, which CSP does not govern.
  'style-src': ["'self'"],
  // Uploads are shown from /files/ on this origin; nothing is drawn from data: or blob: URLs.
  'img-src': ["'self'"],
  // The API, and the PDFs pdf.js fetches from /files/, are on this origin.
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

const serialize = (directives: Directives) =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');

/** Owner pages, the landing page, static assets and any error on those paths: never framed. */
export const PAGE_POLICY = serialize(PAGE_DIRECTIVES);

/** A JSON answer loads nothing, whatever a browser makes of it. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The page policy, also allowing exactly these inline texts (by hash) that the server put in the page. */
const withInline = (directives: Directives, styles: string[], scripts: string[]): Directives => ({
  ...directives,
  'script-src': ["'self'", ...scripts.map(cspHashOf)],
  'style-src': ["'self'", ...styles.map(cspHashOf)],
});

/**
 * The customer's pages may be framed by any site, so a form can be embedded where its owner publishes it; the
 * owner's screens stay unframeable. `styles` and `scripts` are the exact inline texts the server put in this page.
 */
export function customerPolicy(styles: string[] = [], scripts: string[] = []): string {
  return serialize({ ...withInline(PAGE_DIRECTIVES, styles, scripts), 'frame-ancestors': ['*'] });
}

/** The landing page (landing.html): the app's page policy, with its inlined stylesheets and inline scripts. */
export const landingPolicy = (styles: string[], scripts: string[]): string =>
  serialize(withInline(PAGE_DIRECTIVES, styles, scripts));

/** The policy for a request path, before any route narrows it (/files/ answers with its own sandbox policy). */
function policyFor(path: string): { policy: string; framable: boolean } {
  if (path === '/api' || path.startsWith('/api/')) return { policy: API_POLICY, framable: false };
  if (CUSTOMER_PAGE.test(path)) return { policy: customerPolicy(), framable: true };
  return { policy: PAGE_POLICY, framable: false };
}

/** Marks a reply as a customer page with these inline styles and scripts; framing stays allowed. */
export function setCustomerPolicy(reply: FastifyReply, styles: string[], scripts: string[] = []): void {
  reply.header('content-security-policy', customerPolicy(styles, scripts));
}

/**
 * What puts the security headers on a response: helmet's set (nosniff, no referrer, no framing, HSTS when the
 * public URL is https, resources and windows kept to this origin; the customer's pages may be framed and opened by
 * any site) and our Content-Security-Policy for the kind of path. Headers go on the raw response, so an error or a
 * 404 answered later still carries them; a route that sets its own policy with reply.header() replaces this one
 * rather than adding a second.
 */
export function securityHeaders(publicUrl: string): (request: FastifyRequest, reply: FastifyReply) => void {
  const helmetHeaders = helmet({
    // Ours, per kind of path, below.
    contentSecurityPolicy: false,
    // A browser keeps an https-only promise for a year; over plain http there is nothing to promise.
    strictTransportSecurity: publicUrl.startsWith('https:')
      ? { maxAge: 31_536_000, includeSubDomains: true }
      : false,
    // Signed /files/ links and verification tokens ride in URLs: no other origin ever sees one, nor do we need it.
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });
  return (request, reply) => {
    helmetHeaders(request.raw, reply.raw, () => undefined);
    const { policy, framable } = policyFor(request.url.split('?')[0] ?? '');
    reply.raw.setHeader('content-security-policy', policy);
    if (framable) {
      reply.raw.removeHeader('x-frame-options');
      // Any site may frame these pages, and a frame ignores the opener policy: it would guard nothing an embedding
      // page does not already have, and it costs the customer a renderer process of its own before the first paint
      // (ADR 014 addendum, 2026-11-26).
      reply.raw.removeHeader('cross-origin-opener-policy');
    }
  };
}
