// The backup round trip (issue 15): a populated instance — accounts, forms of every kind, 1,000 submissions, files —
// is backed up, restored into an empty database and storage of the same engine, and compared table by table and
// file by file; a server started on the restored data serves it. The PostgreSQL pass of `npm test` runs it there,
// the S3 pass with files in an S3-protocol server (scripts/test.mjs). What a restore refuses: restore-refusals.test.ts.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { Database } from '../../db/database.ts';
import { migrate } from '../../db/migrate.ts';
import { INSTANCE_SETTING, readDatabaseMarker } from '../../storage/instance-marker.ts';
import type { Storage } from '../../storage/storage.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, TEST_CELL } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import {
  archive,
  bytesOf,
  contents,
  emptyTarget,
  formId,
  owner,
  setUpSource,
  source,
  SUBMISSIONS,
  WITH_FILES,
  work,
} from './test-fixture.ts';

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

describe(`backup and restore (${TEST_CELL})`, () => {
  setUpSource();

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
        // The restored database and its store are the source instance's, so a server on them sweeps its files.
        const instance = await readDatabaseMarker(source.app.db);
        expect(instance).toMatch(/^[0-9a-f-]{36}$/);
        expect(await readDatabaseMarker(opened.db)).toBe(instance);
        expect(await opened.storage.readMarker()).toBe(instance);
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
        const restoredOwner = ownerRequests(restoredApp)(login.json<{ token: string }>().token);
        const list = await restoredOwner.get(`/api/formSubmissions/${formId}`);
        expect(list.json<{ total: number }>().total).toBe(SUBMISSIONS + 3);
        const found = await restoredOwner.get(
          `/api/formSubmissions/${formId}?q=${encodeURIComponent('Customer 999 ')}`,
        );
        expect(found.json<{ total: number }>().total).toBe(1);
        const form = await restoredOwner.get(`/api/singleFormForEdit/${formId}`);
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

  it('keeps the file of a response deleted while the backup runs, so the archive holds both', async () => {
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
        ownerRequests(source)(owner)
          .delete(`/api/forms/${row.submission_id}`)
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

  it('makes a target a server started on once the source instance again, in its database and its store', async () => {
    const target = await emptyTarget();
    try {
      const opened = await target.open();
      try {
        // A server's first start on the empty target gave both an id of their own.
        await migrate(opened.db);
        await opened.db.query('insert into app_settings (key, value) values ($1, $2)', [
          INSTANCE_SETTING,
          'started-once',
        ]);
        await opened.storage.writeMarker('started-once');
        await restoreBackup({ db: opened.db, storage: opened.storage, source: createReadStream(archive) });
        const instance = await readDatabaseMarker(source.app.db);
        expect(await readDatabaseMarker(opened.db)).toBe(instance);
        expect(await opened.storage.readMarker()).toBe(instance);
      } finally {
        await opened.close();
      }
    } finally {
      await target.drop();
    }
  }, 120_000);
});
