// The backup round trip (issue 15): a populated instance — accounts, forms of every kind, 1,000 submissions, files —
// is backed up, restored into an empty database and storage of the same engine, and compared table by table and
// file by file; a server started on the restored data serves it. The PostgreSQL pass of `npm test` runs it there,
// the S3 pass with files in an S3-protocol server (scripts/test.mjs).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { loadConfig, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { openStorage } from '../storage/open-storage.ts';
import { startS3TestServer, type S3TestServer } from '../storage/s3-test-server.ts';
import type { Storage } from '../storage/storage.ts';
import {
  createTestApp,
  createTestDatabase,
  signUpOwner,
  TEST_ENGINE,
  TEST_STORAGE,
  type TestApp,
} from '../test-app.ts';
import { multipart, PDF, PNG } from '../test-files.ts';
import { NO_RATE_LIMITS, populateOwner } from '../test-population.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { ident, tablesInLoadOrder } from './tables.ts';

const SUBMISSIONS = 1_000;
const WITH_FILES = 25;

/** An empty place to restore into: a database and a store of the test's engine and backend, nothing running on them. */
type Target = {
  config: Pick<Config, 'databaseUrl' | 'dataDir' | 'storage'>;
  open(): Promise<{ db: Database; storage: Storage; close(): Promise<void> }>;
  drop(): Promise<void>;
};

async function emptyTarget(): Promise<Target> {
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
async function contents(db: Database): Promise<Record<string, { rows: number; digest: string }>> {
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

async function fileDigests(db: Database, storage: Storage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { key } of await db.query<{ key: string }>('select storage_key as key from uploads')) {
    const stream = await storage.open(key);
    out[key] = stream
      ? createHash('sha256')
          .update(await bytesOf(stream))
          .digest('hex')
      : 'missing';
  }
  return out;
}

const bytesOf = async (stream: AsyncIterable<unknown>) => {
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

describe(`backup and restore (${TEST_ENGINE}, files on ${TEST_STORAGE})`, () => {
  let source: TestApp;
  let work: string;
  let archive: string;
  let owner: { token: string; id: string; email: string; password: string };
  let formId: string;

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

  it('restores every row and every file byte into an empty instance, which then serves them', async () => {
    // The source keeps working while it is backed up (its outbox sends mail, its webhook sender retries): compare
    // against a state that held from before the backup until after it, backing up again if something moved.
    let before = await contents(source.app.db);
    let filesBefore = await fileDigests(source.app.db, source.app.storage);
    let backup;
    for (let attempt = 0; ; attempt += 1) {
      backup = await writeBackup({
        db: source.app.db,
        storage: source.app.storage,
        out: createWriteStream(archive),
      });
      const after = await contents(source.app.db);
      if (JSON.stringify(after) === JSON.stringify(before) || attempt === 5) break;
      before = after;
      filesBefore = await fileDigests(source.app.db, source.app.storage);
    }
    const { manifest, ending } = backup;
    expect(before.submissions?.rows).toBeGreaterThanOrEqual(SUBMISSIONS);
    expect(Object.keys(filesBefore).length).toBeGreaterThanOrEqual(WITH_FILES);
    expect(ending).toEqual({ files: Object.keys(filesBefore).length, missing: [] });
    expect(manifest.rows.submissions).toBe(before.submissions?.rows);

    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        const restored = await restoreBackup({
          db: opened.db,
          storage: opened.storage,
          source: createReadStream(archive),
        });
        expect(restored.files).toBe(Object.keys(filesBefore).length);
        expect(await contents(opened.db)).toEqual(before);
        expect(await fileDigests(opened.db, opened.storage)).toEqual(filesBefore);
        expect(Object.values(filesBefore)).not.toContain('missing');
      } finally {
        await opened.close();
      }

      // A server on the restored data: the owner logs in with their password and finds every response; a new
      // customer's submission (new rows under every sequence) is taken.
      const restoredApp = await createTestApp({ ...target.config, rateLimits: NO_RATE_LIMITS });
      try {
        const login = await restoredApp.app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { email: owner.email, password: owner.password },
        });
        expect(login.statusCode).toBe(201);
        const auth = { authorization: `Bearer ${login.json<{ token: string }>().token}` };
        const list = await restoredApp.app.inject({
          method: 'GET',
          url: `/api/formSubmissions/${formId}`,
          headers: auth,
        });
        expect(list.json<{ total: number }>().total).toBe(SUBMISSIONS + 3);
        const found = await restoredApp.app.inject({
          method: 'GET',
          url: `/api/formSubmissions/${formId}?q=${encodeURIComponent('Customer 999 ')}`,
          headers: auth,
        });
        expect(found.json<{ total: number }>().total).toBe(1);
        const form = await restoredApp.app.inject({
          method: 'GET',
          url: `/api/singleFormForEdit/${formId}`,
          headers: auth,
        });
        const name = fieldsOf(form.json<Form>()).find((f) => f.name === 'Name')?._id ?? '';
        const submitted = await restoredApp.app.inject({
          method: 'POST',
          url: `/api/forms/${owner.id}`,
          payload: { formStructureId: formId, textObject: { [name]: 'After the restore' } },
        });
        expect(submitted.statusCode, submitted.body).toBe(200);
      } finally {
        await restoredApp.close();
      }
    } finally {
      await target.drop();
    }
  }, 240_000);

  it('refuses a target that holds data, and changes nothing there', async () => {
    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        await restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(archive) });
        const held = await contents(opened.db);
        await expect(
          restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(archive) }),
        ).rejects.toThrow(/target database is not empty \(it holds \d+ accounts/);
        expect(await contents(opened.db)).toEqual(held);
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  }, 120_000);

  it('refuses a backup from a newer schema, naming both versions', async () => {
    const tar = await import('tar-stream');
    const pack = tar.default.pack();
    const manifest = JSON.parse(await firstEntryOf(archive)) as { schema: string[]; appVersion: string };
    manifest.schema.push('999-from-the-future.sql');
    manifest.appVersion = '9.0.0';
    pack.entry({ name: 'easy-form-backup.json' }, JSON.stringify(manifest));
    pack.finalize();
    const newer = join(work, 'newer.tar');
    await pipeline(pack, createWriteStream(newer));
    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        await expect(
          restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(newer) }),
        ).rejects.toThrow(
          /written by Easy Form 9\.0\.0 \(schema 999-from-the-future\.sql\); this is Easy Form \d/,
        );
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('refuses a cut-short archive and leaves the target empty', async () => {
    const cut = join(work, 'cut.tar');
    await writeFile(cut, await readFile(archive));
    const { size } = await import('node:fs/promises').then((fs) => fs.stat(cut));
    await truncate(cut, Math.floor(size * 0.9));
    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        await expect(
          restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(cut) }),
        ).rejects.toThrow();
        const after = await contents(opened.db);
        expect(after.accounts?.rows ?? 0).toBe(0);
        expect(after.submissions?.rows ?? 0).toBe(0);
        const keys: string[] = [];
        for await (const key of opened.storage.keysWrittenBefore(new Date(Date.now() + 60_000)))
          keys.push(key);
        expect(keys).toEqual([]);
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('refuses what is not a backup', async () => {
    const bogus = join(work, 'bogus.tar');
    await writeFile(bogus, 'hello, this is not a tar file'.repeat(100));
    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        await expect(
          restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(bogus) }),
        ).rejects.toBeInstanceOf(Error);
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  });

  it('keeps the file of a response deleted while the backup runs, so the archive holds both', async () => {
    const auth = { authorization: `Bearer ${owner.token}` };
    const [row] = await source.app.db.query<{ submission_id: string; key: string }>(
      `select submission_id::text, storage_key as key from uploads
        where submission_id is not null and form_id = $1 limit 1`,
      [formId],
    );
    if (!row) throw new Error('no submission with a file');
    // The rows are read before the first byte is written: the owner deletes the response while the backup waits
    // for its destination, after its snapshot.
    let deleted = false;
    const slow = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (deleted) return done();
        deleted = true;
        source.app
          .inject({ method: 'DELETE', url: `/api/forms/${row.submission_id}`, headers: auth })
          .then((res) => done(res.statusCode === 200 ? null : new Error(`delete: ${res.statusCode}`)), done);
      },
    });
    const during = join(work, 'during.tar');
    const copy = createWriteStream(during);
    const tee = new Writable({
      write(chunk: Buffer, encoding, done) {
        slow.write(chunk, encoding, (error) => (error ? done(error) : copy.write(chunk, done)));
      },
      final(done) {
        copy.end(done);
      },
    });
    const { ending } = await writeBackup({ db: source.app.db, storage: source.app.storage, out: tee });
    expect(deleted).toBe(true);
    expect(ending.missing).toEqual([]);
    const gone = await source.app.db.query('select 1 from submissions where id = $1', [row.submission_id]);
    expect(gone).toEqual([]);

    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        await restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(during) });
        const [kept] = await opened.db.query<{ key: string }>(
          'select storage_key as key from uploads where submission_id = $1',
          [row.submission_id],
        );
        expect(kept?.key).toBe(row.key);
        expect(await opened.storage.open(row.key)).not.toBeNull();
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  }, 120_000);
});

async function firstEntryOf(path: string): Promise<string> {
  const tar = await import('tar-stream');
  const extract = tar.default.extract();
  createReadStream(path).pipe(extract);
  for await (const entry of extract) {
    const text = (await bytesOf(entry)).toString('utf8');
    extract.destroy();
    return text;
  }
  throw new Error('empty archive');
}
