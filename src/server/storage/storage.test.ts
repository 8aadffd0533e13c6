import { pbkdf2, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../runtime/config.ts';
import { startS3TestServer, type S3TestServer } from '../testing/s3-test-server.ts';
import { createS3Storage } from './s3-storage.ts';
import { parseStorageUrl, type S3Location } from './storage-url.ts';
import { createDiskStorage, type Storage } from './storage.ts';

const KEY = 'x'.repeat(32);

/** Keeps every thread of libuv's pool busy for a moment, as password hashing does on a busy server. */
const busyThreadPool = () =>
  Promise.all(
    Array.from({ length: 4 }, () => new Promise((resolve) => pbkdf2('p', 's', 5_000, 32, 'sha256', resolve))),
  );

/** A stream of `bytes` in 64 KiB chunks, as a request body arrives. */
function chunked(bytes: Buffer): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    })(),
  );
}

async function keysOf(storage: Storage): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.keysWrittenBefore(new Date(Date.now() + 60_000))) keys.push(key);
  return keys.sort();
}

const refuse = () => {
  throw new Error('refused');
};

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3?.close());

/** Each store, fresh for each test: the disk under a temporary DATA_DIR, S3 under a prefix of its own. */
const stores: [string, () => Promise<{ storage: Storage; drop(): Promise<void> }>][] = [
  [
    'disk',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'easyform-storage-'));
      return {
        storage: await createDiskStorage(dataDir, KEY),
        drop: () => rm(dataDir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'S3',
    async () => {
      const location = parseStorageUrl(s3.storageUrl(`t${randomBytes(6).toString('hex')}`)) as S3Location;
      return { storage: await createS3Storage(location, KEY), drop: async () => undefined };
    },
  ],
];

describe.each(stores)('%s storage', (_name, make) => {
  let storage: Storage;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    ({ storage, drop } = await make());
  });
  afterEach(() => drop());

  it('streams a 12 MiB file in and gives back the same bytes', async () => {
    const bytes = randomBytes(12 * 1024 * 1024);
    const seen: Buffer[] = [];
    const saved = await storage.save(chunked(bytes), (head) => seen.push(head));
    expect(saved.size).toBe(bytes.length);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.subarray(0, 8)).toEqual(bytes.subarray(0, 8));
    const stream = await storage.open(saved.key);
    expect(stream).not.toBeNull();
    expect((await buffer(stream!)).equals(bytes)).toBe(true);
    expect(await keysOf(storage)).toEqual([saved.key]);
  });

  it('keeps nothing of a file refused in its first bytes, small or large', async () => {
    await expect(storage.save(Readable.from([Buffer.from('not an image')]), refuse)).rejects.toThrow(
      'refused',
    );
    await expect(storage.save(chunked(randomBytes(6 * 1024 * 1024)), refuse)).rejects.toThrow('refused');
    // A file that fails after its first part went up (a broken connection) is not kept either.
    const broken = Readable.from(
      (async function* () {
        yield randomBytes(6 * 1024 * 1024);
        throw new Error('connection reset');
      })(),
    );
    await expect(storage.save(broken, () => undefined)).rejects.toThrow('connection reset');
    expect(await keysOf(storage)).toEqual([]);
  });

  it('answers null for a missing or removed file, and removing twice is fine', async () => {
    expect(await storage.open('nosuchkey')).toBeNull();
    const { key } = await storage.save(Readable.from([Buffer.from('%PDF-1.7 hello')]), () => undefined);
    await storage.remove(key);
    await storage.remove(key);
    expect(await storage.open(key)).toBeNull();
    expect(await keysOf(storage)).toEqual([]);
  });

  it('refuses a key that names a path, whatever asks: nothing outside the store is read, written or deleted', async () => {
    for (const key of ['../../etc/passwd', '../outside', 'a/b', '', 'x\0y', '.part', `${'k'.repeat(129)}`]) {
      await expect(storage.open(key), key).rejects.toThrow('not a storage key');
      await expect(storage.remove(key), key).rejects.toThrow('not a storage key');
      await expect(storage.put(key, Readable.from([Buffer.from('%PDF-1.7 x')])), key).rejects.toThrow(
        'not a storage key',
      );
      await expect(storage.quarantine(key), key).rejects.toThrow('not a storage key');
    }
    expect(await keysOf(storage)).toEqual([]);
  });

  it('lists only the files written before the cutoff', async () => {
    const { key } = await storage.save(Readable.from([Buffer.from('%PDF-1.7 hello')]), () => undefined);
    const before: string[] = [];
    for await (const k of storage.keysWrittenBefore(new Date(Date.now() - 60_000))) before.push(k);
    expect(before).toEqual([]);
    expect(await keysOf(storage)).toEqual([key]);
  });

  it('keeps the instance marker apart from the files: never listed, opened or removed as one', async () => {
    expect(await storage.readMarker()).toBeNull();
    await storage.writeMarker('first-instance');
    await storage.writeMarker('0e7c1f52-7a4e-4d7e-9a51-2f0d3c9d8b10');
    expect(await storage.readMarker()).toBe('0e7c1f52-7a4e-4d7e-9a51-2f0d3c9d8b10');
    expect(await keysOf(storage)).toEqual([]);
    await expect(storage.open('.easyform-instance')).rejects.toThrow('not a storage key');
    await expect(storage.remove('.easyform-instance')).rejects.toThrow('not a storage key');
  });

  it('moves a file to the quarantine, out of the listing and out of reach, and deletes it from there by date', async () => {
    const { key } = await storage.save(Readable.from([Buffer.from('%PDF-1.7 hello')]), () => undefined);
    await storage.quarantine(key);
    // A file already gone is nothing to move.
    await storage.quarantine(key);
    expect(await storage.open(key)).toBeNull();
    expect(await keysOf(storage)).toEqual([]);
    expect(await storage.purgeQuarantine(new Date(Date.now() - 60_000))).toBe(0);
    expect(await storage.purgeQuarantine(new Date(Date.now() + 60_000))).toBe(1);
    expect(await storage.purgeQuarantine(new Date(Date.now() + 60_000))).toBe(0);
  });

  it('signs file URLs that verify until they expire, and only for their file', () => {
    const url = new URL(storage.signUrl('file-1', 60), 'http://x');
    const [e, s] = [url.searchParams.get('e') ?? '', url.searchParams.get('s') ?? ''];
    expect(storage.verifyUrl('file-1', e, s)).toBe(true);
    expect(storage.verifyUrl('file-2', e, s)).toBe(false);
    expect(storage.verifyUrl('file-1', String(Number(e) + 1), s)).toBe(false);
    const expired = new URL(storage.signUrl('file-1', -1), 'http://x');
    expect(
      storage.verifyUrl('file-1', expired.searchParams.get('e') ?? '', expired.searchParams.get('s') ?? ''),
    ).toBe(false);
  });
});

describe('disk storage', () => {
  it('leaves a file beside the store untouched when asked to remove it by a path', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'easyform-storage-'));
    try {
      const storage = await createDiskStorage(dataDir, KEY);
      await writeFile(join(dataDir, 'outside'), 'keep me');
      await expect(storage.remove('../outside')).rejects.toThrow('not a storage key');
      expect(await readFile(join(dataDir, 'outside'), 'utf8')).toBe('keep me');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps no file, not even a partial one, when the first bytes are refused on a busy server', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'easyform-storage-'));
    try {
      const storage = await createDiskStorage(dataDir, KEY);
      for (let attempt = 0; attempt < 300; attempt++) {
        const busy = busyThreadPool();
        const refused = storage.save(Readable.from([Buffer.from('just some text, not an image')]), refuse);
        await expect(refused).rejects.toThrow('refused');
        await busy;
        expect(await readdir(join(dataDir, 'uploads')), `attempt ${attempt}`).toEqual([]);
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('S3 storage', () => {
  it('keeps to its prefix: another instance’s files and foreign keys are neither listed nor swept', async () => {
    const mine = await createS3Storage(parseStorageUrl(s3.storageUrl('mine')) as S3Location, KEY);
    const theirs = await createS3Storage(parseStorageUrl(s3.storageUrl('mine-too')) as S3Location, KEY);
    const { key } = await mine.save(Readable.from([Buffer.from('%PDF-1.7 a')]), () => undefined);
    await theirs.save(Readable.from([Buffer.from('%PDF-1.7 b')]), () => undefined);
    expect(await keysOf(mine)).toEqual([key]);
  });

  it('refuses to start on a bucket that does not exist, naming it', async () => {
    const location = parseStorageUrl(
      s3.storageUrl('x').replace('easyform-test', 'no-such-bucket'),
    ) as S3Location;
    await expect(createS3Storage(location, KEY)).rejects.toThrow(
      /^STORAGE_URL: bucket "no-such-bucket" does not exist at /,
    );
  });
});

describe('STORAGE_URL', () => {
  it('reads the bucket, prefix and options', () => {
    expect(
      parseStorageUrl('s3://my-bucket/easy/form/?endpoint=http%3A%2F%2F127.0.0.1%3A9000&forcePathStyle=true'),
    ).toEqual({
      bucket: 'my-bucket',
      prefix: 'easy/form/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
    });
    expect(loadConfig({ STORAGE_URL: 's3://files.example', AWS_REGION: 'eu-west-1' }).storage).toEqual({
      bucket: 'files.example',
      prefix: '',
      endpoint: undefined,
      region: 'eu-west-1',
      forcePathStyle: false,
    });
    expect(loadConfig({}).storage).toBeUndefined();
  });

  it.each([
    ['/var/uploads', /must be a URL/],
    ['file:///var/uploads', /must start with s3:\/\//],
    ['s3://A_B/x', /not a valid bucket name/],
    ['s3://bucket?endpont=http://x', /unknown option endpont/],
    ['s3://bucket?endpoint=ftp://x', /endpoint must be an http/],
    ['s3://bucket?forcePathStyle=yes', /forcePathStyle must be true or false/],
  ])('refuses %s with a message that says why', (url, message) => {
    expect(() => loadConfig({ STORAGE_URL: url })).toThrow(message);
  });
});
