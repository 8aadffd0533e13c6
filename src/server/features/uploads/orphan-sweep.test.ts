// The orphan sweep's safeguards (docs/decisions/036): the instance marker in the database and the file store, a
// sweep that stays off while they disagree or while the database names no upload, a bounded share a pass, and the
// quarantine. A server started on the wrong database: sweep-wrong-database.test.ts.
import { readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_SETTING, readDatabaseMarker } from '../../storage/instance-marker.ts';
import {
  createForm,
  createTestApp,
  signUpOwner,
  storedKeys,
  TEST_CELL,
  TEST_STORAGE,
  type TestApp,
} from '../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../testing/test-files.ts';
import { ORPHAN_FILE_GRACE_MS, QUARANTINE_DAYS, sweepOrphanFiles } from './orphan-sweep.ts';
import { logLines } from './test-fixture.ts';

const DAY = 24 * 60 * 60 * 1000;
const later = (ms: number) => new Date(Date.now() + ms);
/** When every file stored so far is old enough for the sweep. */
const inTwoHours = () => later(2 * ORPHAN_FILE_GRACE_MS);

let t: TestApp;
const log = logLines();
const deps = () => ({ db: t.app.db, storage: t.app.storage, log: t.app.log });
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info', logStream: log.stream });
  await t.app.ready();
});
afterAll(async () => {
  await t?.close();
});

/** Files left behind, stored the way uploads are but named by no row. */
const leaveOrphans = (count: number) =>
  Promise.all(
    Array.from({ length: count }, () => t.app.storage.save(Readable.from([PDF]), () => undefined)),
  ).then((saved) => saved.map((s) => s.key));
const isStored = async (key: string) => {
  const stream = await t.app.storage.open(key);
  stream?.destroy();
  return stream !== null;
};
const sweepLines = () => log.lines.filter((line) => line.includes('The file sweep is off'));

describe(`the orphan sweep (${TEST_CELL})`, () => {
  it('gives a new instance one id, in its database and in its file store, and another instance another', async () => {
    expect((await sweepOrphanFiles(deps())).skipped).toBeNull();
    const id = await readDatabaseMarker(t.app.db);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.app.storage.readMarker()).toBe(id);
    // Every test app starts from one migrated database: the id is made at the first start, not by a migration.
    const other = await createTestApp();
    try {
      expect(
        (await sweepOrphanFiles({ ...deps(), db: other.app.db, storage: other.app.storage })).skipped,
      ).toBeNull();
      expect(await readDatabaseMarker(other.app.db)).not.toBe(id);
    } finally {
      await other.close();
    }
  });

  it('moves nothing while the database names no upload but the store holds files, and says so', async () => {
    const orphans = await leaveOrphans(2);
    const before = sweepLines().length;
    const pass = await sweepOrphanFiles(deps(), inTwoHours());
    expect(pass).toEqual({
      moved: 0,
      purged: 0,
      skipped: 'the database names no uploaded file, but the file store holds files older than an hour',
    });
    expect(sweepLines()).toHaveLength(before + 1);
    expect(await storedKeys(t)).toEqual(expect.arrayContaining(orphans));
  });

  it('moves nothing while the database and the store hold different ids, and names both', async () => {
    const owner = await signUpOwner(t);
    const form = await createForm(t, owner.token, { template: 'travel' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/profile?formId=${form._id}`,
      ...multipart('a.png', PNG),
    });
    expect(res.statusCode).toBe(200);
    const id = await readDatabaseMarker(t.app.db);
    const keys = await storedKeys(t);
    await t.app.db.query('update app_settings set value = $2 where key = $1', [
      INSTANCE_SETTING,
      'someone-else',
    ]);
    try {
      const pass = await sweepOrphanFiles(deps(), inTwoHours());
      expect(pass.skipped).toBe(`the database belongs to instance someone-else and the file store to ${id}`);
      expect(sweepLines().at(-1)).toContain('Check DATABASE_URL, DATA_DIR and STORAGE_URL');
      expect(await storedKeys(t)).toEqual(keys);
    } finally {
      await t.app.db.query('update app_settings set value = $2 where key = $1', [INSTANCE_SETTING, id]);
    }
  });

  it('moves at most its share in one pass (a tenth, at least 10) to the quarantine, and the rest in the next', async () => {
    await leaveOrphans(12);
    const stored = (await storedKeys(t)).length;
    const [named] = await t.app.db.query<{ n: number }>('select count(*)::int as n from uploads');
    const orphans = stored - (named?.n ?? 0);
    expect(orphans).toBe(14);
    const first = await sweepOrphanFiles(deps(), inTwoHours());
    expect(first).toEqual({ moved: 10, purged: 0, skipped: null });
    expect(log.lines.at(-1)).toContain(`14 of ${stored} stored files are named by no upload`);
    expect(await sweepOrphanFiles(deps(), inTwoHours())).toEqual({ moved: 4, purged: 0, skipped: null });
    expect(await storedKeys(t)).toHaveLength(stored - orphans);
    // Every file an upload names is still served.
    for (const { key } of await t.app.db.query<{ key: string }>('select storage_key as key from uploads'))
      expect(await isStored(key)).toBe(true);
  });

  it.skipIf(TEST_STORAGE !== 'disk')(
    'keeps a quarantined file whole, and moved back it is a stored file again',
    async () => {
      const [key] = await leaveOrphans(1);
      if (!key) throw new Error('no file saved');
      const uploads = join(t.app.config.dataDir, 'uploads');
      expect((await sweepOrphanFiles(deps(), inTwoHours())).moved).toBe(1);
      expect(await isStored(key)).toBe(false);
      expect((await readFile(join(uploads, 'quarantine', key))).equals(PDF)).toBe(true);
      await rename(join(uploads, 'quarantine', key), join(uploads, key));
      expect(await isStored(key)).toBe(true);
      expect((await sweepOrphanFiles(deps(), inTwoHours())).moved).toBe(1);
    },
  );

  it(`deletes quarantined files once they have been there ${QUARANTINE_DAYS} days, and no sooner`, async () => {
    expect((await sweepOrphanFiles(deps(), later((QUARANTINE_DAYS - 1) * DAY))).purged).toBe(0);
    const purged = (await sweepOrphanFiles(deps(), later((QUARANTINE_DAYS + 1) * DAY))).purged;
    expect(purged).toBe(TEST_STORAGE === 'disk' ? 15 : 14);
    expect((await sweepOrphanFiles(deps(), later((QUARANTINE_DAYS + 1) * DAY))).purged).toBe(0);
  });

  it('gives an instance from before ids, whose store holds files its database names, one id in both', async () => {
    const before = await t.app.storage.readMarker();
    await t.app.db.query('delete from app_settings where key = $1', [INSTANCE_SETTING]);
    // On disk the store's marker goes too: the upgrade from a version without them.
    if (TEST_STORAGE === 'disk') await rm(join(t.app.config.dataDir, 'uploads', '.easyform-instance'));
    expect((await sweepOrphanFiles(deps(), inTwoHours())).skipped).toBeNull();
    const id = await readDatabaseMarker(t.app.db);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await t.app.storage.readMarker()).toBe(id);
    if (TEST_STORAGE !== 'disk') expect(id).toBe(before);
  });
});
