import { createServer, request, type Server } from 'node:http';

/**
 * What the front does with each request: pass it on, answer S3's 503 SlowDown, never answer, never answer a part of
 * a multipart upload (passing the rest on), or pass it on late.
 */
export type FrontMode = 'pass' | '503' | 'silent' | 'silent-parts' | { slowMs: number };

export type S3TestFront = {
  /** The endpoint to give the app instead of the S3 server's own. */
  endpoint: string;
  set(next: FrontMode): void;
  /** The requests it has taken and neither answered nor seen given up on by the app. */
  open(): number;
  close(): Promise<void>;
};

/**
 * An HTTP front on 127.0.0.1 to the S3 test server at `target`, for the outage tests: it passes requests on,
 * answers each with S3's 503 SlowDown, takes them and never answers (reading what is sent), or passes each on after
 * a delay, as the test switches it.
 */
export async function startS3TestFront(target: URL): Promise<S3TestFront> {
  let mode: FrontMode = 'pass';
  let open = 0;
  const server: Server = createServer((req, res) => {
    open += 1;
    res.on('close', () => void (open -= 1));
    const part = /[?&]partNumber=/.test(req.url ?? '');
    if (mode === 'silent' || (mode === 'silent-parts' && part)) return void req.resume();
    if (mode === '503') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0"?><Error><Code>SlowDown</Code><Message>Reduce your rate</Message></Error>');
      return;
    }
    const pass = () => {
      const upstream = request(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: req.headers },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    };
    if (mode === 'pass' || mode === 'silent-parts') pass();
    else setTimeout(pass, mode.slowMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    set: (next) => void (mode = next),
    open: () => open,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
