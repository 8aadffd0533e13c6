import type { PassThrough } from 'node:stream';

/** How often a watched upload is looked at: a stall is seen at most this long (or a quarter of its time) late. */
const LOOK_MS = 1_000;

export type StallWatch = {
  /** S3 answered one of the upload's requests (the multipart upload made, a part accepted). */
  answered(): void;
  stop(): void;
};

/**
 * Watches an upload to S3 through its `body` (the stream `Upload` reads) and calls `onStall` once when S3 owes it
 * something and makes no progress for `timeoutMs`. S3 owes the upload while the body holds bytes it has not taken
 * (Upload reads no more while a request is out: the multipart upload being made, a part going up) or once the whole
 * file is in and its last requests are out. Progress is a byte taken from the body or a request answered. While the
 * body is empty and open, the wait is for the customer's bytes: the slow-body guard (body-rate.ts) times that.
 */
export function watchForStall(body: PassThrough, timeoutMs: number, onStall: () => void): StallWatch {
  let last = Date.now();
  const progress = () => void (last = Date.now());
  // Upload reads the body with read(), which emits 'data' for each chunk it takes. Paused first, so that listening
  // does not set the body flowing into nobody before Upload starts reading.
  body.pause();
  body.on('data', progress);
  const owed = () => body.readableLength > 0 || body.writableEnded;
  const timer = setInterval(
    () => {
      if (!owed()) return progress();
      if (Date.now() - last < timeoutMs) return;
      stop();
      onStall();
    },
    Math.min(LOOK_MS, timeoutMs / 4),
  );
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    body.off('data', progress);
  };
  return { answered: progress, stop };
}
