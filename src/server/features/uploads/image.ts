import { createWriteStream } from 'node:fs';
import { opendir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomToken } from '../../http/crypto.ts';
import { HttpError } from '../../http/errors.ts';
import { makeDirectory } from '../../runtime/make-directory.ts';
import { checkHead } from '../../storage/head-check.ts';

export type ImageMime = 'image/jpeg' | 'image/png';
export const isImageMime = (mime: string): mime is ImageMime => mime === 'image/jpeg' || mime === 'image/png';

/**
 * Decodes held at once. A decoded image lives in memory whole (40 megapixels of RGBA is 160 MB), so the number of
 * decodes, not of uploads, bounds memory; two keeps both cores of a small server busy. Waiting uploads wait after
 * their bytes have arrived, so a slow connection never holds a slot.
 */
const DECODE_SLOTS = 2;

export type ImageReencoder = {
  /**
   * Streams `source` to a staging file (`inspect` checks its first bytes, `whenStaged` may refuse it once whole),
   * then re-encodes it and hands the result to `save`.
   */
  reencode<T>(upload: {
    source: Readable;
    mime: ImageMime;
    inspect: (head: Buffer) => void;
    whenStaged: () => void;
    save: (image: Readable) => Promise<T>;
  }): Promise<T>;
  /** Removes staging files left by a crash, once older than `graceMs`. */
  sweep(graceMs: number): Promise<number>;
};

type Sharp = (typeof import('sharp'))['default'];
let sharpLoaded: Promise<Sharp> | undefined;
/** libvips is loaded with the first image, not at start: a restart serves sooner (docs/decisions/031). */
function loadSharp(): Promise<Sharp> {
  return (sharpLoaded ??= import('sharp').then(({ default: sharp }) => {
    // libvips would otherwise cache decoded images and run a thread per core for each decode.
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  }));
}

/**
 * Every JPEG and PNG is decoded and encoded again, so what reaches the owner is pixels we produced: EXIF (GPS,
 * camera serials), comments and any bytes hidden after the image are gone, orientation is applied, and a file that
 * does not decode is refused. The colour profile is kept so colours do not shift.
 */
export async function createImageReencoder(stagingDir: string, maxPixels: number): Promise<ImageReencoder> {
  await makeDirectory(stagingDir);
  const withSlot = createSlots(DECODE_SLOTS);

  return {
    async reencode({ source, mime, inspect, whenStaged, save }) {
      const staged = join(stagingDir, `${randomToken(18)}.part`);
      try {
        // On disk, not in memory: libvips reads the file as it decodes.
        const out = createWriteStream(staged, { flags: 'wx' });
        await pipeline(source, checkHead(inspect), out).catch(async (error: unknown) => {
          // A refusal in the first bytes can reject before the file is even open: let it open and close first, or
          // the removal below would run before the file exists.
          if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()).destroy());
          throw error;
        });
        whenStaged();
        return await withSlot(async () => {
          const sharp = await loadSharp();
          const image = sharp(staged, { limitInputPixels: maxPixels, failOn: 'truncated' })
            .autoOrient()
            .keepIccProfile();
          const encoded = mime === 'image/jpeg' ? image.jpeg({ quality: 90 }) : image.png();
          return await save(encoded).catch((error: unknown) => {
            throw imageError(error, maxPixels);
          });
        });
      } finally {
        await rm(staged, { force: true });
      }
    },
    async sweep(graceMs) {
      let removed = 0;
      for await (const entry of await opendir(stagingDir)) {
        const path = join(stagingDir, entry.name);
        const written = await stat(path).then(
          (s) => s.mtimeMs,
          () => Date.now(),
        );
        if (written < Date.now() - graceMs) {
          await rm(path, { force: true });
          removed++;
        }
      }
      return removed;
    },
  };
}

/** A refusal for what libvips said about the image; a disk or other system error passes through. */
function imageError(error: unknown, maxPixels: number): unknown {
  if (error instanceof HttpError || (error as NodeJS.ErrnoException).code !== undefined) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return new HttpError(
      413,
      'PAYLOAD_TOO_LARGE',
      `The image is larger than ${Math.floor(maxPixels / 1_000_000)} megapixels; upload a smaller one`,
    );
  }
  return new HttpError(422, 'VALIDATION_FAILED', 'file: The image is damaged or incomplete; upload it again');
}

/** Runs at most `size` tasks at once; the rest wait in order. */
function createSlots(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
