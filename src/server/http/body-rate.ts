import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Cuts the connection of a request whose body arrives slower than `minBytesPerSecond`, averaged over each window.
 * This replaces a fixed total time (issue 10: 120 s cut off any 10 MiB upload slower than ~87 KB/s): a stalled or
 * trickling client still loses its connection within two windows, while a slow but steady one finishes however long
 * it takes. Measured on the socket, so no stream is touched and every route, JSON or multipart, is covered.
 *
 * Only time the server spends reading counts: while the socket is paused because the server's own side has stopped
 * taking the body (back-pressure from a storage that is slow to take the file, or not answering, which s3-stall.ts
 * answers with its own 503), the client cannot send, so a window is judged once it holds windowMs of reading.
 */
export function enforceBodyRate(
  app: FastifyInstance,
  { minBytesPerSecond, windowMs }: { minBytesPerSecond: number; windowMs: number },
): void {
  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    const socket = raw.socket as Partial<Socket> | null;
    const hasBody =
      (raw.headers['content-length'] ?? '0') !== '0' || raw.headers['transfer-encoding'] !== undefined;
    // Injected requests (tests) have no real socket to measure.
    if (!hasBody || raw.complete || !socket || typeof socket.bytesRead !== 'number') return;
    const live = socket as Socket;
    let seen = live.bytesRead;
    // Reading time in this window: what ended at each pause, and the stretch since `readingSince` (null: paused).
    let reading = 0;
    let readingSince: number | null = live.isPaused() ? null : Date.now();
    const onPause = () => {
      if (readingSince !== null) reading += Date.now() - readingSince;
      readingSince = null;
    };
    const onResume = () => void (readingSince ??= Date.now());
    live.on('pause', onPause);
    live.on('resume', onResume);
    const stop = () => {
      clearInterval(timer);
      live.off('pause', onPause);
      live.off('resume', onResume);
    };
    const timer = setInterval(() => {
      if (raw.complete || live.destroyed) return stop();
      const now = Date.now();
      const measured = reading + (readingSince === null ? 0 : now - readingSince);
      if (measured < windowMs) return;
      const read = live.bytesRead;
      if (read - seen < (minBytesPerSecond * measured) / 1000) {
        stop();
        request.log.info(
          { bytes: read - seen, windowMs: measured },
          'request body too slow; connection closed',
        );
        live.destroy();
        return;
      }
      seen = read;
      reading = 0;
      if (readingSince !== null) readingSince = now;
    }, windowMs);
    timer.unref();
    raw.once('close', stop);
  });
}
