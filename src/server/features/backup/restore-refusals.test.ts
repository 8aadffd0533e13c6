// What a restore refuses (issue 15): a target that holds data, a backup from a newer schema, a cut-short archive and
// what is not a backup, each leaving the target as it was. The archive is a backup of the same populated instance
// as the round trip's (backup.test.ts).
import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CELL } from '../../testing/test-app.ts';
import { writeBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { archive, bytesOf, contents, emptyTarget, setUpSource, source, work } from './test-fixture.ts';

describe(`backup and restore (${TEST_CELL})`, () => {
  setUpSource();
  // The refusals start from a good archive of the populated source; the round trip writes its own.
  beforeAll(async () => {
    await writeBackup({ db: source.app.db, storage: source.app.storage, out: createWriteStream(archive) });
  }, 120_000);

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
        ).rejects.toThrow(/^This backup cannot be read to its end \(.+\): it is cut short, damaged/);
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
