import { pbkdf2 } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiskStorage, type Storage } from './storage.ts';

let dataDir: string;
let storage: Storage;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'easyform-storage-'));
  storage = await createDiskStorage(dataDir, 'x'.repeat(32));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** Keeps every thread of libuv's pool busy for a moment, as password hashing does on a busy server. */
const busyThreadPool = () =>
  Promise.all(
    Array.from({ length: 4 }, () => new Promise((resolve) => pbkdf2('p', 's', 5_000, 32, 'sha256', resolve))),
  );

describe('disk storage', () => {
  it('keeps no file, not even a partial one, when the first bytes are refused on a busy server', async () => {
    for (let attempt = 0; attempt < 300; attempt++) {
      const busy = busyThreadPool();
      const refused = storage.save(Readable.from([Buffer.from('just some text, not an image')]), () => {
        throw new Error('refused');
      });
      await expect(refused).rejects.toThrow('refused');
      await busy;
      expect(await readdir(join(dataDir, 'uploads')), `attempt ${attempt}`).toEqual([]);
    }
  });
});
