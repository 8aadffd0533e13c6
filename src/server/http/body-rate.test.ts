import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, type TestApp } from '../testing/test-app.ts';
import { multipart, PDF } from '../testing/test-files.ts';

// Real sockets against a listening app, with the thresholds shrunk so the test takes seconds: at least 2,000 bytes
// a second, averaged over 200 ms windows.
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ bodyMinBytesPerSecond: 2000, bodyRateWindowMs: 200 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await t?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends an upload of `size` bytes `chunk` bytes at a time, `gapMs` apart; resolves with the status line, 'closed' when
 * the server closed the connection without one, or says that nothing came.
 */
async function sendSlowly(size: number, chunk: number, gapMs: number): Promise<string> {
  const { payload, headers } = multipart(
    'slow.pdf',
    Buffer.concat([PDF, Buffer.alloc(size - PDF.length, 0x20)]),
  );
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let closed = false;
  socket.on('data', (data: Buffer) => (answer += data.toString('latin1')));
  const ended = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closed = true;
      resolve();
    }),
  );
  socket.on('error', () => undefined);
  socket.write(
    `POST /api/profile HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${headers['content-type']}\r\n` +
      `Content-Length: ${payload.length}\r\nConnection: close\r\n\r\n`,
  );
  for (let at = 0; at < payload.length && !closed; at += chunk) {
    socket.write(payload.subarray(at, at + chunk));
    await Promise.race([sleep(gapMs), ended]);
  }
  // 'closed' only when the server closed the connection: a wait that runs out says so instead.
  const closedByServer = await Promise.race([ended.then(() => true), sleep(5000).then(() => false)]);
  socket.destroy();
  return answer.split('\r\n')[0] || (closedByServer ? 'closed' : 'no answer within 5 s');
}

describe(`slow request bodies on ${TEST_ENGINE}`, () => {
  it('lets a slow but steady upload finish, however many windows it spans', async () => {
    // About 6,000 bytes a second for 1.5 s: three times the minimum, over seven windows.
    expect(await sendSlowly(9000, 300, 50)).toBe('HTTP/1.1 200 OK');
  });

  it('cuts off a stalled upload within two windows', async () => {
    // 3,000 bytes, then nothing: the next chunk would come after the test's own time limit.
    expect(await sendSlowly(20_000, 3000, 60_000)).toBe('closed');
  });

  it('cuts off a trickling upload (200 bytes a second) and stays healthy', async () => {
    expect(await sendSlowly(20_000, 20, 100)).toBe('closed');
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await sendSlowly(4000, 4000, 0)).toBe('HTTP/1.1 200 OK');
  });
});
