// What the backup suites share: a populated source instance (accounts, forms of every kind, 1,000 submissions,
// files), an empty place to restore into, and a digest of every table to compare them by.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { openDatabase, type Database } from '../../db/database.ts';
import { loadConfig, type Config } from '../../runtime/config.ts';
import { openStorage } from '../../storage/open-storage.ts';
import type { Storage } from '../../storage/storage.ts';
import { startS3TestServer, type S3TestServer } from '../../testing/s3-test-server.ts';
import {
  createTestApp,
  createTestDatabase,
  signUpOwner,
  TEST_ENGINE,
  TEST_STORAGE,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';
import { NO_RATE_LIMITS, populateOwner } from '../../testing/test-population.ts';
import { ident, tablesInLoadOrder } from './tables.ts';

export const SUBMISSIONS = 1_000;
export const WITH_FILES = 25;

/** An empty place to restore into: a database and a store of the test's engine and backend, nothing running on them. */
type Target = {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storage'>;
  open(): Promise<{ db: Database; storage: Storage; close(): Promise<void> }>;
  drop(): Promise<void>;
};

export async function emptyTarget(): Promise<Target> {
  const dataDir = await mkdtemp(join(tmpdir(), 'easyform-restore-'));
  // The embedded engine persists under DATA_DIR (an in-memory database would not outlive its opening).
  const database = TEST_ENGINE === 'postgres' ? await createTestDatabase() : null;
  const s3: S3TestServer | null = TEST_STORAGE === 's3' ? await startS3TestServer() : null;
  const storageConfig = loadConfig(s3 ? { STORAGE_URL: s3.storageUrl() } : {}).storage;
  const config = { databaseUrl: database?.url, dataDir, storage: storageConfig };
  return {
    config,
    async open() {
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir, lockRetries: 0 });
      const storage = await openStorage(config, 'unused: nothing is signed here');
      return { db, storage, close: () => db.close() };
    },
    async drop() {
      await database?.drop();
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every table's rows as PostgreSQL prints them (in UTC), sorted: equal digests mean equal contents. */
export async function contents(db: Database): Promise<Record<string, { rows: number; digest: string }>> {
  return db.transaction(async (tx) => {
    await tx.query("set local time zone 'UTC'");
    const out: Record<string, { rows: number; digest: string }> = {};
    for (const table of await tablesInLoadOrder(tx)) {
      const [row] = await tx.query<{ rows: number; digest: string }>(
        `select count(*)::int as rows, md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as digest
           from ${ident(table.name)} x`,
      );
      if (row) out[table.name] = row;
    }
    return out;
  });
}

export const bytesOf = async (stream: AsyncIterable<unknown>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** A thousand customers answer the form with every kind of question, some with a file, as through the public API. */
async function submitMany(t: TestApp, ownerId: string, form: Form): Promise<void> {
  const byName = (name: string) => fieldsOf(form).find((f) => f.name === name)?._id ?? '';
  const submitOne = async (i: number) => {
    let fileObject = {};
    if (i < WITH_FILES) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        ...(i % 2 === 0 ? multipart(`scan ${i}.pdf`, PDF) : multipart(`photo ${i}.png`, PNG)),
      });
      const file = res.json<UploadResponse>();
      fileObject = {
        [byName('ID proof')]: { deleteId: file._id, value: file.file, originalName: file.name },
      };
    }
    const body = {
      formStructureId: form._id,
      textObject: {
        [byName('Name')]: `Customer ${i} — ${'नमस्ते 😀'.repeat(i % 3)} 'quoted' "and" \\ back\nline`,
        [byName('Email')]: `c${i}@example.com`,
        [byName('About')]: i % 7 === 0 ? 'x'.repeat(9_000) : `row ${i}`,
      },
      selectedValues: { [byName('Room')]: i % 2 ? 'Double' : 'Single' },
      selectedRadio: { [byName('Meal')]: i % 3 ? 'Veg' : 'Non-veg' },
      selectedCheckboxes: [{ name: byName('Extras'), values: i % 2 ? ['Wifi'] : ['Wifi', 'Parking'] }],
      fileObject,
    };
    const res = await t.app.inject({ method: 'POST', url: `/api/forms/${ownerId}`, payload: body });
    if (res.statusCode !== 200) throw new Error(`submit ${i}: ${res.statusCode} ${res.body}`);
  };
  for (let start = 0; start < SUBMISSIONS; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, SUBMISSIONS - start) }, (_, k) => submitOne(start + k)),
    );
  }
}

// Set before the file's tests by setUpSource(); each test file imports its own copy of this module.
export let source: TestApp;
/** A scratch folder for archives; `archive` is the path of the backup a suite writes there. */
export let work: string;
export let archive: string;
export let owner: { token: string; id: string; email: string; password: string };
/** The source owner's form with every kind of question, which the thousand customers answered. */
export let formId: string;

/** Populates the source instance before the file's tests, and closes it and removes the scratch folder after them. */
export function setUpSource(): void {
  beforeAll(async () => {
    source = await createTestApp({ rateLimits: NO_RATE_LIMITS });
    work = await mkdtemp(join(tmpdir(), 'easyform-backup-test-'));
    archive = join(work, 'backup.tar');
    owner = await signUpOwner(source);
    const population = await populateOwner(source, owner);
    await populateOwner(source, await signUpOwner(source));
    const form = population.forms.find((f) => f.formTitle === 'Every kind');
    if (!form) throw new Error('no form with every kind of question');
    formId = form._id;
    await submitMany(source, owner.id, form);
    // Deliveries to the populated webhook's address fail; marked failed now, the sender stops retrying them.
    await source.app.db.query("update webhook_deliveries set status = 'failed'");
  }, 240_000);

  afterAll(async () => {
    await source?.close();
    await rm(work, { recursive: true, force: true });
  });
}
