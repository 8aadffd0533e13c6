// One migrated embedded database per test run: Vitest's global set-up (vitest.config.ts) migrates an in-memory PGlite
// once and writes its files to a temporary tar; every test app on the embedded engine then starts from that image
// (test-app.ts) instead of running initdb and the migrations again, which cost a test app 1-5 s. The migration tests
// (db/migrate.test.ts) still migrate from empty.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMemoryDatabase, MEMORY_DATABASE, openDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database's tar, or '' when the run is on PostgreSQL. */
    migratedImagePath: string;
  }
}

/** The files of an in-memory embedded database with every migration applied. */
export async function migratedImage(): Promise<Blob> {
  const db = await openDatabase({ databaseUrl: MEMORY_DATABASE, dataDir: '' });
  try {
    await migrate(db);
    return await dumpMemoryDatabase(db);
  } finally {
    await db.close();
  }
}

/** Vitest's global set-up: made once per run, removed after it. */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('migratedImagePath', '');
    return;
  }
  const dir = await mkdtemp(join(tmpdir(), 'easyform-image-'));
  const path = join(dir, 'migrated.tar');
  await writeFile(path, Buffer.from(await (await migratedImage()).arrayBuffer()));
  project.provide('migratedImagePath', path);
  return () => rm(dir, { recursive: true, force: true });
}

let cached: Promise<Blob> | undefined;
/** The run's image, read once per worker; made here when the run has none (a test file run outside Vitest's set-up). */
export function runImage(path: string): Promise<Blob> {
  cached ??= path ? readFile(path).then((bytes) => new Blob([bytes])) : migratedImage();
  return cached;
}
