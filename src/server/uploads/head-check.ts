import { Transform } from 'node:stream';
import { SNIFF_BYTES } from './file-type.ts';

/** Passes bytes through, handing the first SNIFF_BYTES to `inspect` once, which may throw to abort the stream. */
export function checkHead(inspect: (head: Buffer) => void): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
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
        // A file shorter than the signature (or empty) is still inspected, and refused there.
        if (head !== null) inspect(head);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
