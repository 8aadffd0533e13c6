// A real HTTP receiver for webhooks on 127.0.0.1, and the check a receiver makes of a delivery's signature: the
// webhook tests and the browser journey that follows a response to the owner's receiver share them.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Received = { headers: IncomingHttpHeaders; body: string };

/** Listens on a free port of 127.0.0.1 and hands `onRequest` each request with its whole body. */
async function listen(onRequest: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => onRequest(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A real HTTP receiver on 127.0.0.1: records each request and answers with the next planned status (then 200). */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  plan: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const plan: number[] = [];
  const server = await listen((req, body, res) => {
    received.push({ headers: req.headers, body });
    res.statusCode = plan.shift() ?? 200;
    res.end('ok');
  });
  return { ...server, received, plan };
}

/** What a receiver does: recompute the HMAC of "<t>.<body>" with the secret and compare in constant time. */
export function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const given = Buffer.from(parts.v1 ?? '', 'utf8');
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected, 'utf8'));
}

/**
 * A real receiver on 127.0.0.1 that holds every request until the test releases the ones it holds (then answers each
 * with the next planned status, 200 by default): the sender's pass waits between its POSTs and its record step.
 */
export async function startHoldingReceiver() {
  const names: string[] = [];
  const plan: number[] = [];
  let held: (() => void)[] = [];
  const server = await listen((_req, text, res) => {
    const body = JSON.parse(text) as { answers: { value: string }[] };
    names.push(body.answers[0]?.value ?? '');
    held.push(() => {
      res.statusCode = plan.shift() ?? 200;
      res.end('ok');
    });
  });
  return {
    ...server,
    /** The answer (Name) of each response received, in order, duplicates included. */
    names,
    plan,
    release() {
      const answers = held;
      held = [];
      for (const answer of answers) answer();
    },
  };
}
