import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountRoutes } from './accounts/routes.ts';
import type { Config } from './config.ts';
import { openDatabase } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { registerErrorHandler } from './errors.ts';
import { formRoutes } from './forms/routes.ts';
import { createMailer } from './mail/mailer.ts';
import { registerWebApp } from './web-app.ts';
import './fastify-types.ts';

const JSON_BODY_LIMIT = 64 * 1024;

/** Builds the whole app from a config, without listening: main.ts listens, tests inject. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestTimeout: 120_000,
  });

  registerErrorHandler(app);
  // The API speaks JSON (and multipart for uploads); a text body is a client mistake answered with 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = await openDatabase(config);
  const applied = await migrate(db);
  if (applied.length > 0) app.log.info({ applied }, 'migrations applied');
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('mailer', mailer);
  app.decorateRequest('owner', null);
  app.addHook('onClose', async () => {
    await mailer.close();
    await db.close();
  });

  // Limits are applied per route (accounts/routes.ts), per address and per email.
  await app.register(rateLimit, { global: false });

  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/health',
    { schema: { response: { 200: z.object({ ok: z.literal(true), db: z.enum(['pglite', 'postgres']) }) } } },
    async () => ({ ok: true as const, db: db.kind }),
  );
  await app.register(accountRoutes, { prefix: '/api/v1' });
  await app.register(formRoutes, { prefix: '/api' });

  await registerWebApp(app, config.webDir);
  // Mail left in the outbox by a previous run goes out now.
  void mailer.flush();
  return app;
}
