// One migrated embedded database per journey run: the e2e project's global set-up (vitest.config.ts) runs initdb and
// the migrations once into a temporary data directory, and every journey server started without a data directory of
// its own starts from a copy of it (support/server.ts), as a restarted instance would, instead of paying initdb and
// the migrations again (3-5 CPU-seconds a server). The smoke journey still starts from an empty directory.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/database.ts';
import { migrate } from '../../src/server/db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A DATA_DIR whose `pgdata` holds a migrated embedded database, closed cleanly. */
    embeddedTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(join(tmpdir(), 'easyform-e2e-template-'));
  const db = await openDatabase({ databaseUrl: undefined, dataDir: dir, lockRetries: 0 });
  try {
    await migrate(db, { timeZone: 'Asia/Kolkata' });
  } finally {
    await db.close();
  }
  project.provide('embeddedTemplate', dir);
  return () => rm(dir, { recursive: true, force: true });
}
