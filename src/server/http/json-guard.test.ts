import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBMISSION_BODY_LIMIT } from '../features/submissions/ingest/body-limit.ts';
import { createTestApp, TEST_ENGINE, type TestApp } from '../testing/test-app.ts';
import { DEFAULT_JSON_SHAPE, JsonShapeScanner, LARGE_BODIES_AT_ONCE, type JsonShape } from './json-guard.ts';

// Issue 34: ~16 million empty arrays in one submission-sized body kept /api/health waiting 19 s and grew the process
// by gigabytes while JSON.parse built them. Real sockets against a listening app.
let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await t?.close();
});

const BOMB_HEAD = `{"formStructureId":"${randomUUID()}","x":[`;
const BOMB_ELEMENT = '[],';
/** As many empty arrays as the submission route's size limit lets through. */
const BOMB_ELEMENTS = Math.floor((SUBMISSION_BODY_LIMIT - BOMB_HEAD.length - 4) / BOMB_ELEMENT.length);

type Sent = { statusLine: string; body: string; bytesSent: number; socket: Socket };

/**
 * POSTs `head`, `element` × `count` and `tail` to `path` as JSON, 64 KiB at a time and waiting for the socket to
 * drain, until the server answers or closes; resolves with its answer and how many body bytes had gone by then.
 */
function sendBody(path: string, head: string, element: string, count: number, tail: string): Promise<Sent> {
  const length = Buffer.byteLength(head) + element.length * count + Buffer.byteLength(tail);
  const socket = connect(port, '127.0.0.1');
  let answer = '';
  let answered = false;
  socket.on('data', (data: Buffer) => {
    answer += data.toString('latin1');
    answered = true;
  });
  socket.on('error', () => undefined);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const perChunk = Math.floor((64 * 1024) / element.length);
  const chunk = Buffer.from(element.repeat(perChunk));
  return (async () => {
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${length}\r\n\r\n${head}`,
    );
    let bytesSent = Buffer.byteLength(head);
    for (let sent = 0; sent < count && !answered && !socket.destroyed; sent += perChunk) {
      const part = sent + perChunk <= count ? chunk : Buffer.from(element.repeat(count - sent));
      bytesSent += part.length;
      if (!socket.write(part))
        await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), ended]);
    }
    if (!answered && !socket.destroyed) socket.write(tail);
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    const [headers = '', body = ''] = answer.split('\r\n\r\n');
    return { statusLine: headers.split('\r\n')[0] ?? '', body, bytesSent, socket };
  })();
}

describe(`hostile JSON bodies on ${TEST_ENGINE}`, () => {
  it('refuses a submission of millions of empty arrays after its first kilobytes, answering /api/health meanwhile', async () => {
    const health: number[] = [];
    let sending = true;
    const polling = (async () => {
      while (sending) {
        health.push((await fetch(`http://127.0.0.1:${port}/api/health`)).status);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const sent = await sendBody(`/api/forms/${randomUUID()}`, BOMB_HEAD, BOMB_ELEMENT, BOMB_ELEMENTS, '[]]}');
    sending = false;
    await polling;
    sent.socket.destroy();
    expect(sent.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(sent.body)).toEqual({
      error: { code: 'VALIDATION_FAILED', message: 'body: has more than 32768 values' },
    });
    // The server stopped reading long before the 48 MiB it would once have parsed whole.
    expect(sent.bytesSent).toBeLessThan(8 * 1024 * 1024);
    expect(health.length).toBeGreaterThan(0);
    expect(health.every((status) => status === 200)).toBe(true);
  });

  it('refuses a body nested too deep, and a string longer than any answer, as they arrive', async () => {
    const deep = await sendBody('/api/v1/login', '', '[', 64 * 1024, '');
    deep.socket.destroy();
    expect(deep.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(deep.body).error.message).toBe('body: nested deeper than 32 levels');
    const long = await sendBody(`/api/forms/${randomUUID()}`, '{"formStructureId":"', 'a', 1024 * 1024, '"}');
    long.socket.destroy();
    expect(long.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(long.body).error.message).toBe('body: has a string longer than 131072 bytes');
  });

  it(`takes ${LARGE_BODIES_AT_ONCE} large bodies at once and tells the next to come back, with Retry-After`, async () => {
    const path = `/api/forms/${randomUUID()}`;
    const large = 4 * 1024 * 1024;
    const opened: Socket[] = [];
    const open = () =>
      new Promise<Socket>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => resolve(socket));
        socket.on('error', () => undefined);
        opened.push(socket);
      });
    const headers = `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${large}\r\n\r\n{"formStructureId":"`;
    try {
      // Each starts its body and waits: held in flight until it finishes or goes.
      const holding = await Promise.all(Array.from({ length: LARGE_BODIES_AT_ONCE }, open));
      for (const socket of holding) socket.write(headers);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await open();
      const answer = new Promise<string>((resolve) =>
        next.once('data', (d: Buffer) => resolve(d.toString())),
      );
      next.write(headers);
      const said = await answer;
      expect(said.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
      expect(said).toMatch(/\r\nretry-after: 5\r\n/i);
      // Once one of them goes, a large body is taken again: this one is read and judged on what it holds.
      holding[0]?.destroy();
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = await sendBody(path, '{"formStructureId":"', 'a', 2 * 1024 * 1024, '"}');
      again.socket.destroy();
      expect(again.statusLine).toBe('HTTP/1.1 400 Bad Request');
    } finally {
      for (const socket of opened) socket.destroy();
    }
  });
});

/** What the scanner counts, computed on the parsed value: containers and separators, nesting, escaped string bytes. */
function shapeOf(value: unknown): { values: number; depth: number; stringBytes: number } {
  const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
  if (typeof value === 'string') return { values: 0, depth: 0, stringBytes: escapedBytes(value) };
  if (value === null || typeof value !== 'object') return { values: 0, depth: 0, stringBytes: 0 };
  const entries = Array.isArray(value) ? value.map((v) => ['', v] as const) : Object.entries(value);
  const inner = entries.map(([key, v]) => {
    const s = shapeOf(v);
    return { ...s, stringBytes: Math.max(s.stringBytes, Array.isArray(value) ? 0 : escapedBytes(key)) };
  });
  return {
    values: 1 + Math.max(0, entries.length - 1) + inner.reduce((n, s) => n + s.values, 0),
    depth: 1 + Math.max(0, ...inner.map((s) => s.depth)),
    stringBytes: Math.max(0, ...inner.map((s) => s.stringBytes)),
  };
}

describe('the JSON shape scanner', () => {
  it('judges any JSON text as its parsed shape says, however the text is cut into chunks (generated)', () => {
    const limits = fc.record({
      values: fc.integer({ min: 1, max: 40 }),
      depth: fc.integer({ min: 1, max: 6 }),
      stringBytes: fc.integer({ min: 1, max: 30 }),
    });
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        limits,
        fc.array(fc.nat(), { maxLength: 8 }),
        (value, shape, cuts) => {
          const text = Buffer.from(JSON.stringify(value));
          const scanner = new JsonShapeScanner(shape as JsonShape);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          let refused: string | null = null;
          let from = 0;
          for (const to of [...points, text.length]) {
            refused ??= scanner.scan(text.subarray(from, to));
            from = to;
          }
          const actual = shapeOf(value);
          const within =
            actual.values <= shape.values &&
            actual.depth <= shape.depth &&
            actual.stringBytes <= shape.stringBytes;
          expect(refused === null).toBe(within);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('takes the widest submission a form allows under the default shape', () => {
    // 200 checkbox questions with every one of their 100 options ticked, each option as long as allowed.
    const widest = {
      formStructureId: randomUUID(),
      selectedCheckboxes: Array.from({ length: 200 }, (_, i) => ({
        name: `Question ${i}`,
        values: Array.from({ length: 100 }, (_, j) => `${j}`.padEnd(500, '😀')),
      })),
    };
    expect(new JsonShapeScanner(DEFAULT_JSON_SHAPE).scan(Buffer.from(JSON.stringify(widest)))).toBeNull();
  });
});
