// A database of its own for each PostgreSQL part of the bench: rows a run adds never slow the next run's loads (three
// ingest runs on one database grew it to 2.7 GB, and its rates fell with it).
import { throwawayDatabase } from '../src/server/testing/throwaway-database.ts';

/** Runs `work` with the URL of a new, empty database on the server of `serverUrl` (dropped after), or undefined. */
export async function inScratchDatabase<T>(
  serverUrl: string | undefined,
  work: (databaseUrl: string | undefined) => Promise<T>,
): Promise<T> {
  if (!serverUrl) return work(undefined);
  const scratch = await throwawayDatabase(serverUrl, 'easyform_bench');
  try {
    return await work(scratch.url);
  } finally {
    await scratch.drop();
  }
}
