import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, vi } from 'vitest';

/**
 * For web tests: a real HTTP server on 127.0.0.1 that answers as a reverse proxy in front of Easy Form does when the
 * app is not what answers (nginx's own HTML pages: 413 over client_max_body_size, 502 while the app restarts), or as
 * a captive portal does (200, its sign-in page). The page's fetch of `/api/…` goes to it.
 */

/** What nginx 1.24 sends as the body of its own error page. */
export const nginxPage = (status: number, reason: string) =>
  `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n`;

export type ProxyAnswer = { status: number; type: string; body: string };

export const NGINX: Record<number, ProxyAnswer> = {
  400: { status: 400, type: 'text/html', body: nginxPage(400, 'Bad Request') },
  413: { status: 413, type: 'text/html', body: nginxPage(413, 'Request Entity Too Large') },
  502: { status: 502, type: 'text/html', body: nginxPage(502, 'Bad Gateway') },
  504: { status: 504, type: 'text/html', body: nginxPage(504, 'Gateway Time-out') },
};

export const CAPTIVE_PORTAL: ProxyAnswer = {
  status: 200,
  type: 'text/html',
  body: '<!doctype html><title>Sign in to Station WiFi</title><form><button>Accept and connect</button></form>',
};

export const appJson = (status: number, body: unknown): ProxyAnswer => ({
  status,
  type: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
});

type Seen = { method: string; url: string; body: string };

/**
 * Starts the server for the file's tests and points the page's fetch at it. `answer` decides each answer from the
 * request; `seen` lists what reached it.
 */
export function proxyTestServer(answer: (request: Seen) => ProxyAnswer) {
  const state = { answer, seen: [] as Seen[], origin: '', inFlight: 0 };
  const server = createServer((request: IncomingMessage, response) => {
    // nginx reads (and drops) the body before its 413 on a keep-alive connection; read it whole here too.
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen = {
        method: request.method ?? '',
        url: request.url ?? '',
        body: Buffer.concat(chunks).toString(),
      };
      state.seen.push(seen);
      const { status, type, body } = state.answer(seen);
      response.writeHead(status, { 'content-type': type, server: 'nginx/1.24.0' }).end(body);
    });
  });
  const realFetch = globalThis.fetch;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  /**
   * Call in a test (the setup file restores mocks after each): the page's relative URLs go to this server. jsdom's
   * FormData is not one Node's fetch can send (it waits forever), so a multipart body goes as its fields' names:
   * the proxy reads and drops it either way.
   */
  const route = () =>
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (url, init) => {
      const body = init?.body instanceof FormData ? [...init.body.keys()].join() : init?.body;
      state.inFlight++;
      try {
        const response = await realFetch(new URL(String(url), state.origin), { ...init, body });
        // On its way until the whole answer has come (read here from a copy; the page reads its own).
        await response.clone().arrayBuffer();
        return response;
      } finally {
        state.inFlight--;
      }
    });
  /** Whether a request of the page's is on its way (for test-clock.ts: the page's clock is not hurried meanwhile). */
  const busy = () => state.inFlight > 0;
  return Object.assign(state, { route, busy });
}
