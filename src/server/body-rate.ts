import type { FastifyInstance } from 'fastify';

/**
 * Cuts the connection of a request whose body arrives slower than `minBytesPerSecond`, averaged over each window.
 * This replaces a fixed total time (issue 10: 120 s cut off any 10 MiB upload slower than ~87 KB/s): a stalled or
 * trickling client still loses its connection within two windows, while a slow but steady one finishes however long
 * it takes. Measured on the socket, so no stream is touched and every route, JSON or multipart, is covered.
 */
export function enforceBodyRate(
  app: FastifyInstance,
  { minBytesPerSecond, windowMs }: { minBytesPerSecond: number; windowMs: number },
): void {
  const perWindow = (minBytesPerSecond * windowMs) / 1000;
  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    const socket = raw.socket as { bytesRead?: unknown; destroyed?: boolean; destroy(): void } | null;
    const hasBody =
      (raw.headers['content-length'] ?? '0') !== '0' || raw.headers['transfer-encoding'] !== undefined;
    // Injected requests (tests) have no real socket to measure.
    if (!hasBody || raw.complete || typeof socket?.bytesRead !== 'number') return;
    let seen = socket.bytesRead;
    const timer = setInterval(() => {
      if (raw.complete || socket.destroyed) return clearInterval(timer);
      const read = socket.bytesRead as number;
      if (read - seen < perWindow) {
        clearInterval(timer);
        request.log.info({ bytes: read - seen, windowMs }, 'request body too slow; connection closed');
        socket.destroy();
      }
      seen = read;
    }, windowMs);
    timer.unref();
    raw.once('close', () => clearInterval(timer));
  });
}
