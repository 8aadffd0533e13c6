// A webhook receiver on 127.0.0.1 for the bench: reads each POST whole, answers at once and counts what it got.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Receiver = {
  url: string;
  /** Requests received, and distinct `Easyform-Delivery` ids among them (fewer means a delivery came twice). */
  received(): number;
  distinct(): number;
  /** performance.now() of the first and the last request received since the last `reset`. */
  firstAt(): number | undefined;
  lastAt(): number | undefined;
  /** The status every next request is answered with: 200, or e.g. 503 to play a receiver that is down. */
  answerWith(status: number): void;
  reset(): void;
  /** Resolves with the count once `count` requests have arrived, or when none came for `idleMs`, or at `timeoutMs`. */
  waitFor(count: number, options: { timeoutMs: number; idleMs: number }): Promise<number>;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  let received = 0;
  let ids = new Set<string>();
  let first: number | undefined;
  let last: number | undefined;
  let status = 200;
  const server = createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      const now = performance.now();
      first ??= now;
      last = now;
      received++;
      const id = req.headers['easyform-delivery'];
      if (typeof id === 'string') ids.add(id);
      res.writeHead(status, { 'content-length': '0' }).end();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => received,
    distinct: () => ids.size,
    firstAt: () => first,
    lastAt: () => last,
    answerWith: (code) => (status = code),
    reset() {
      received = 0;
      ids = new Set();
      first = undefined;
      last = undefined;
    },
    async waitFor(count, { timeoutMs, idleMs }) {
      const called = performance.now();
      const deadline = called + timeoutMs;
      while (received < count && performance.now() < deadline) {
        if (performance.now() - Math.max(last ?? called, called) > idleMs) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
