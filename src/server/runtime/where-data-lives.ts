import { resolve } from 'node:path';
import type { Config } from './config.ts';

/** A PostgreSQL URL's place, never its user's password (nor anything else its query may carry). */
function postgresPlace(databaseUrl: string) {
  if (!URL.canParse(databaseUrl)) return { engine: 'postgresql' };
  const url = new URL(databaseUrl);
  return {
    engine: 'postgresql',
    host: url.hostname || url.searchParams.get('host') || 'localhost',
    port: Number(url.port || 5432),
    database: decodeURIComponent(url.pathname.slice(1)) || decodeURIComponent(url.username),
  };
}

/** An endpoint's origin: a URL's user, password, path and query are left out. */
const originOf = (endpoint: string) => (URL.canParse(endpoint) ? new URL(endpoint).origin : 'unreadable');

/**
 * Which database and which file store this process uses, for its start-up line: an operator reading the log sees at
 * once a server started on the wrong ones. Credentials are never part of it.
 */
export function whereDataLives(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storage'>) {
  const { storage } = config;
  return {
    database: config.databaseUrl
      ? postgresPlace(config.databaseUrl)
      : { engine: 'embedded', path: resolve(config.dataDir, 'pgdata') },
    storage: storage
      ? {
          kind: 's3',
          bucket: storage.bucket,
          prefix: storage.prefix,
          endpoint: storage.endpoint ? originOf(storage.endpoint) : `AWS S3 (${storage.region})`,
          region: storage.region,
        }
      : { kind: 'disk', path: resolve(config.dataDir, 'uploads') },
  };
}
