import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, opendir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES } from './file-type.ts';

/**
 * Uploaded files on local disk under DATA_DIR/uploads, outside the web root, each under a random name; and the
 * HMAC that signs their short-lived URLs. The interface is small so an S3-compatible store can replace the disk.
 */
export type Storage = {
  /** Streams `source` to a new file; `inspect` sees the first bytes and may throw to abort. Returns key and size. */
  save(source: Readable, inspect: (head: Buffer) => void): Promise<{ key: string; size: number }>;
  open(key: string): ReadStream;
  remove(key: string): Promise<void>;
  /** Keys of every stored file (and of every partial one) last written before `cutoff`, streamed. */
  keysWrittenBefore(cutoff: Date): AsyncIterable<string>;
  signUrl(uploadId: string, ttlSeconds: number): string;
  verifyUrl(uploadId: string, expires: string, signature: string): boolean;
};

export async function createDiskStorage(dataDir: string, signingKey: string): Promise<Storage> {
  const dir = join(dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const pathOf = (key: string) => join(dir, key);
  const sign = (uploadId: string, expires: string) =>
    createHmac('sha256', signingKey).update(`${uploadId}.${expires}`).digest('base64url');

  return {
    async save(source, inspect) {
      const key = randomBytes(24).toString('base64url');
      const partial = `${pathOf(key)}.part`;
      let size = 0;
      let head: Buffer | null = Buffer.alloc(0);
      const watch = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          if (head !== null) {
            head = Buffer.concat([head, chunk]);
            if (head.length >= SNIFF_BYTES) {
              try {
                inspect(head);
              } catch (error) {
                return done(error as Error);
              }
              head = null;
            }
          }
          done(null, chunk);
        },
        flush(done) {
          try {
            if (head !== null) inspect(head);
            done();
          } catch (error) {
            done(error as Error);
          }
        },
      });
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(source, watch, out);
        await rename(partial, pathOf(key));
      } catch (error) {
        // pipeline() may reject before the file has even been opened (a refusal in the first bytes): wait until the
        // stream has opened and closed it, or the removal would run first and the file be created after it.
        if (!out.closed) {
          const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
          out.destroy();
          await closed;
        }
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size };
    },
    open: (key) => createReadStream(pathOf(key)),
    remove: (key) => rm(pathOf(key), { force: true }),
    async *keysWrittenBefore(cutoff) {
      for await (const entry of await opendir(dir)) {
        if (!entry.isFile()) continue;
        // A file removed since the listing (a concurrent delete) is simply not there any more.
        const written = await stat(pathOf(entry.name)).then(
          (s) => s.mtime,
          () => null,
        );
        if (written && written < cutoff) yield entry.name;
      }
    },
    signUrl(uploadId, ttlSeconds) {
      const expires = String(Math.floor(Date.now() / 1000) + ttlSeconds);
      return `/files/${uploadId}?e=${expires}&s=${sign(uploadId, expires)}`;
    },
    verifyUrl(uploadId, expires, signature) {
      if (!/^\d{1,12}$/.test(expires) || Number(expires) < Date.now() / 1000) return false;
      const expected = Buffer.from(sign(uploadId, expires));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
