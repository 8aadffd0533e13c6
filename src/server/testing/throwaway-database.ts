// A database made for one test, one bench part or one proof, on a PostgreSQL server the caller names, and dropped
// after: what the tests (test-app.ts), the bench (bench/scratch-database.ts) and the scale-out proof each need.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function onServer(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A new, empty database on the server of `serverUrl`, named `prefix` and random hex (a name that needs no quoting),
 * and its URL; `drop()` removes it even while connections are still open to it.
 */
export async function throwawayDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => onServer(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
