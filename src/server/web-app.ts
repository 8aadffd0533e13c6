import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { notFound } from './errors.ts';

/** The customer's pages (spec §2), served as customer.html rather than index.html (docs/decisions/012). */
const CUSTOMER_PAGE = /^\/(?:customer\/[^/]+\/[^/]+|preview|fileUpload)\/?$/i;

/**
 * Serves the built React app: hashed assets cached for a year, the customer's pages from customer.html, everything
 * else index.html so the client router can answer. Unknown paths under /api stay JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string | undefined): Promise<void> {
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
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (
      path === '/api' ||
      path.startsWith('/api/') ||
      !hasWebApp ||
      !['GET', 'HEAD'].includes(request.method)
    ) {
      throw notFound(`No route ${request.method} ${path}`);
    }
    const page = hasCustomerPage && CUSTOMER_PAGE.test(path) ? 'customer.html' : 'index.html';
    return reply.header('cache-control', 'no-cache').sendFile(page);
  });
}
