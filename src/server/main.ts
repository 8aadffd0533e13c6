import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DatabaseInUseError } from './db/database.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  let app;
  try {
    app = await buildApp(config);
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Easy Form is running at ${config.publicUrl} (database: ${app.db.kind})`);
  if (process.env.TRUST_PROXY?.trim().toLowerCase() === 'true') {
    app.log.warn(
      "TRUST_PROXY=true is read as TRUST_PROXY=1: only the nearest proxy's X-Forwarded-For entry is believed (README: Behind a reverse proxy)",
    );
  }
  if (config.webhookAllowPrivate) {
    app.log.warn(
      'WEBHOOK_ALLOW_PRIVATE=true: webhooks may reach loopback, private and link-local addresses (docs/decisions/023-webhooks.md)',
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
