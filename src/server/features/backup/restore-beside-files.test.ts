// A restore when only the database was lost (issue 35, item 8): the rows come from the backup, the files stay in the
// store they are in, each checked, and nothing stored is changed; a store that does not match is refused, naming why.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadResponse } from '#common/submissions.ts';
import type { Database } from '../../db/database.ts';
import { databaseMarkerOr, newInstanceId, readDatabaseMarker } from '../../storage/instance-marker.ts';
import type { Storage } from '../../storage/storage.ts';
import {
  createForm,
  createTestApp,
  signUpOwner,
  storedKeys,
  TEST_CELL,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { bytesOf, contents, emptyTarget } from './test-fixture.ts';

let t: TestApp;
let work: string;
let archive: string;
let instanceId: string;
/** The backed-up uploads' keys, and the database as the backup holds it. */
let keys: string[];
let atBackup: Awaited<ReturnType<typeof contents>>;
let target: Awaited<ReturnType<typeof emptyTarget>>;
let lost: { db: Database; close(): Promise<void> };

const upload = async (formId: string, name: string, bytes: Buffer) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/profile?formId=${formId}`,
    ...multipart(name, bytes),
  });
  if (res.statusCode !== 200) throw new Error(`upload: ${res.statusCode} ${res.body}`);
  return res.json<UploadResponse>();
};

/** Every stored file's bytes, by key: what must be exactly the same after any restore beside them. */
async function everyFile(storage: Storage): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of await storedKeys(t)) {
    const stream = await storage.open(key);
    out[key] = stream ? (await bytesOf(stream)).toString('base64') : 'gone';
  }
  return out;
}

const restoreBeside = () =>
  restoreBackup({
    db: lost.db,
    storage: t.app.storage,
    source: createReadStream(archive),
    filesInPlace: true,
  });

describe(`a restore of a lost database beside its intact files (${TEST_CELL})`, () => {
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: NO_RATE_LIMITS });
    const owner = await signUpOwner(t);
    const form = await createForm(t, owner.token, { template: 'travel' });
    await upload(form._id, 'scan.pdf', PDF);
    await upload(form._id, 'photo.png', PNG);
    await upload(form._id, 'second scan.pdf', Buffer.concat([PDF, Buffer.from('%% more\n')]));
    instanceId = await databaseMarkerOr(t.app.db, newInstanceId);
    await t.app.storage.writeMarker(instanceId);
    keys = (await t.app.db.query<{ key: string }>('select storage_key as key from uploads')).map(
      (r) => r.key,
    );
    work = await mkdtemp(join(tmpdir(), 'easyform-beside-'));
    archive = join(work, 'backup.tar');
    await writeBackup({ db: t.app.db, storage: t.app.storage, out: createWriteStream(archive) });
    atBackup = await contents(t.app.db);
    // A customer's file arrives after the backup: the restore must leave it where it is.
    await upload(form._id, 'later.png', PNG);
    // The database is lost: a new, empty one (nothing restored into it survives a refusal, so one serves all).
    target = await emptyTarget();
    lost = await target.open();
  }, 120_000);
  afterAll(async () => {
    await lost?.close();
    await target?.drop();
    await t?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('without --keep-files, refuses the store as not empty and says the flag', async () => {
    await expect(
      restoreBackup({ db: lost.db, storage: t.app.storage, source: createReadStream(archive) }),
    ).rejects.toThrow(/target file storage is not empty .*add --keep-files/);
  });

  it('refuses, naming each file, when one is missing and another has another size; nothing is changed', async () => {
    const [gone, resized] = keys;
    if (!gone || !resized) throw new Error('fewer than two uploads');
    const originals = Object.fromEntries(
      await Promise.all(
        [gone, resized].map(
          async (key) => [key, await bytesOf((await t.app.storage.open(key)) ?? Readable.from([]))] as const,
        ),
      ),
    );
    await t.app.storage.remove(gone);
    await t.app.storage.remove(resized);
    await t.app.storage.put(resized, Readable.from([Buffer.from('not the same file')]));
    const stored = await everyFile(t.app.storage);
    try {
      await expect(restoreBeside()).rejects.toThrow(
        new RegExp(
          `does not hold this backup's files as they were \\(1 missing: ${gone}; ` +
            `1 of another size: ${resized} \\(17 bytes, the backup says \\d+\\)\\)\\. Nothing was restored`,
        ),
      );
      expect((await contents(lost.db)).accounts?.rows ?? 0).toBe(0);
      expect(await everyFile(t.app.storage)).toEqual(stored);
    } finally {
      await t.app.storage.remove(resized);
      for (const [key, bytes] of Object.entries(originals))
        await t.app.storage.put(key, Readable.from([bytes]));
    }
  });

  it("refuses a store that holds another instance's marker", async () => {
    await t.app.storage.writeMarker(newInstanceId());
    try {
      await expect(restoreBeside()).rejects.toThrow(/target file storage belongs to another instance/);
      expect((await contents(lost.db)).accounts?.rows ?? 0).toBe(0);
    } finally {
      await t.app.storage.writeMarker(instanceId);
    }
  });

  it('restores the database, checks every file, and leaves every stored file as it was', async () => {
    const stored = await everyFile(t.app.storage);
    const result = await restoreBeside();
    expect(result.files).toBe(keys.length);
    // The file uploaded after the backup is named by no restored upload: counted, left where it is.
    expect(result.unnamed).toBe(1);
    expect(await contents(lost.db)).toEqual(atBackup);
    expect(await everyFile(t.app.storage)).toEqual(stored);
    expect(await readDatabaseMarker(lost.db)).toBe(instanceId);
    expect(await t.app.storage.readMarker()).toBe(instanceId);
  });
});
