import { createWriteStream } from 'node:fs';
import { link, open, opendir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken, sign, verifySignature } from '../http/crypto.ts';
import { makeDirectory } from '../runtime/make-directory.ts';
import { diskMarkerAndQuarantine } from './disk-quarantine.ts';
import { realFileSync, type FileSync } from './file-sync.ts';
import { checkHead } from './head-check.ts';

/**
 * Uploaded files on local disk under DATA_DIR/uploads, outside the web root, each under a random name; and the
 * HMAC that signs their short-lived URLs. The interface is small so an S3-compatible store can replace the disk.
 */
export type Storage = {
  /** Streams `source` to a new file; `inspect` sees the first bytes and may throw to abort. Returns key and size. */
  save(source: Readable, inspect: (head: Buffer) => void): Promise<{ key: string; size: number }>;
  /** The stored file, or null when it is gone (deleted since its row was read, or lost from the disk). */
  open(key: string): Promise<Readable | null>;
  /** The stored file's size in bytes, or null when there is none (a restore beside the files checks them by it). */
  size(key: string): Promise<number | null>;
  remove(key: string): Promise<void>;
  /**
   * Writes a file under a key it had elsewhere (a restore from a backup); refuses to replace one. Returns its size.
   */
  put(key: string, source: Readable): Promise<number>;
  /** Keys of every stored file (and of every partial one) last written before `cutoff`, streamed. */
  keysWrittenBefore(cutoff: Date): AsyncIterable<string>;
  /** The id of the instance whose files these are (docs/decisions/036), or null when the store has none yet. */
  readMarker(): Promise<string | null>;
  /** Writes the instance's id, replacing any before it. */
  writeMarker(id: string): Promise<void>;
  /** Moves a stored file into the quarantine, dated now; a file that is gone is nothing to move. */
  quarantine(key: string): Promise<void>;
  /** Deletes the files moved into the quarantine before `cutoff`; returns how many. */
  purgeQuarantine(cutoff: Date): Promise<number>;
  /** Writes a small object beside the files and removes it again: throws when the store takes no writes now. */
  probe(signal: AbortSignal): Promise<void>;
  signUrl(uploadId: string, ttlSeconds: number): string;
  verifyUrl(uploadId: string, expires: string, signature: string): boolean;
};

/** Signed file URLs, the same whichever store holds the bytes: the app serves /files itself (docs/decisions/008). */
export function urlSigner(signingKey: string): Pick<Storage, 'signUrl' | 'verifyUrl'> {
  const signed = (uploadId: string, expires: string) => `${uploadId}.${expires}`;
  return {
    signUrl(uploadId, ttlSeconds) {
      const expires = String(Math.floor(Date.now() / 1000) + ttlSeconds);
      return `/files/${uploadId}?e=${expires}&s=${sign(signingKey, signed(uploadId, expires))}`;
    },
    verifyUrl(uploadId, expires, signature) {
      if (!/^\d{1,12}$/.test(expires) || Number(expires) < Date.now() / 1000) return false;
      return verifySignature(signingKey, signed(uploadId, expires), signature);
    },
  };
}

/** A new file's key: random, so a name can never be guessed or chosen by the uploader. */
export const newFileKey = () => randomToken(24);

/** A stored file's key as this app makes them (base64url): all an upload row may name. */
export const FILE_KEY = /^[\w-]{1,128}$/;

/** What a key can be in a store: a file's, or its partial file's (`.part`); never a path. */
const KEY = /^[\w-]{1,128}(\.part)?$/;

/**
 * `key`, checked wherever a store is about to use one: a key read from a crafted backup or a tampered row
 * (`../../etc/passwd`) must never reach a file or an object outside the store.
 */
export function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`not a storage key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

/**
 * A file is answered for only once it would survive a power cut: its bytes are synced before it takes its final
 * name, and the folder after, so the name is durable too (the database row beside it already is).
 */
export async function createDiskStorage(
  dataDir: string,
  signingKey: string,
  sync: FileSync = realFileSync,
): Promise<Storage> {
  const dir = join(dataDir, 'uploads');
  await makeDirectory(dir);
  const pathOf = (key: string) => join(dir, checkedKey(key));

  return {
    ...urlSigner(signingKey),
    ...diskMarkerAndQuarantine(dir, { pathOf, isKey: (name) => KEY.test(name) }),
    async save(source, inspect) {
      const key = newFileKey();
      const partial = `${pathOf(key)}.part`;
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(source, checkHead(inspect), out);
        await sync.file(partial);
        await rename(partial, pathOf(key));
        await sync.dir(dir);
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
      return { key, size: out.bytesWritten };
    },
    async open(key) {
      // Opened before the answer starts, so a missing file is a 404 rather than a stream failing mid-response.
      const handle = await open(pathOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      return handle?.createReadStream() ?? null;
    },
    async size(key) {
      return stat(pathOf(key)).then(
        (s) => (s.isFile() ? s.size : null),
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return null;
          throw error;
        },
      );
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async put(key, source) {
      const partial = `${pathOf(key)}.part`;
      const out = createWriteStream(partial, { flags: 'wx' });
      try {
        await pipeline(source, out);
        await sync.file(partial);
        await link(partial, pathOf(key));
      } finally {
        await rm(partial, { force: true });
      }
      await sync.dir(dir);
      return out.bytesWritten;
    },
    async *keysWrittenBefore(cutoff) {
      for await (const entry of await opendir(dir)) {
        // Only our own keys: anything else in the folder (a file an operator put there) is left alone.
        if (!entry.isFile() || !KEY.test(entry.name)) continue;
        // A file removed since the listing (a concurrent delete) is simply not there any more.
        const written = await stat(pathOf(entry.name)).then(
          (s) => s.mtime,
          () => null,
        );
        if (written && written < cutoff) yield entry.name;
      }
    },
  };
}
