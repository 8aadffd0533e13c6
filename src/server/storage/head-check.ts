import { Transform } from 'node:stream';

/** How many first bytes `inspect` is shown: enough for every file signature the uploads feature recognises. */
export const HEAD_BYTES = 8;

/** Passes bytes through, handing the first HEAD_BYTES to `inspect` once, which may throw to abort the stream. */
export function checkHead(inspect: (head: Buffer) => void): Transform {
  let head: Buffer | null = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head !== null) {
        head = Buffer.concat([head, chunk]);
        if (head.length >= HEAD_BYTES) {
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
