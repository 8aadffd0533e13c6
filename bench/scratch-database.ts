// A database of its own for each PostgreSQL part of the bench: rows a run adds never slow the next run's loads (three
// ingest runs on one database grew it to 2.7 GB, and its rates fell with it).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A new, empty database on the PostgreSQL server of `serverUrl`, dropped by `drop()`. */
export async function scratchDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `easyform_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** Runs `work` with the URL of a new, empty database on the server of `serverUrl` (dropped after), or undefined. */
export async function inScratchDatabase<T>(
  serverUrl: string | undefined,
  work: (databaseUrl: string | undefined) => Promise<T>,
): Promise<T> {
  if (!serverUrl) return work(undefined);
  const scratch = await scratchDatabase(serverUrl);
  try {
    return await work(scratch.url);
  } finally {
    await scratch.drop();
  }
}
