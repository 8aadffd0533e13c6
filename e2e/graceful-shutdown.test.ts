import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, request } from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '../src/common/forms.ts';
import type { WebhookView } from '../src/common/webhooks.ts';
import { startMailCapture } from '../src/server/testing/mail-capture.ts';
import { createOwner, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

const servers: RunningServer[] = [];
let dataDir: string | undefined;
afterAll(async () => {
  for (const server of servers) await server.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function call<T>(server: RunningServer, owner: TestOwner, path: string, body?: object): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/**
 * An upload sent slowly, as from a phone: the head of a PDF, then `chunks` more pieces `gapMs` apart. Resolves with
 * the status, body and Connection header the server answered. `onStarted` runs once the first bytes are out.
 */
function slowUpload(url: string, formId: string, chunks: number, gapMs: number, onStarted: () => void) {
  const boundary = `----slow${randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\n` +
      `Content-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
  );
  const piece = Buffer.alloc(16 * 1024, 0x20);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    const req = request(
      `${url}/api/profile?formId=${formId}`,
      {
        method: 'POST',
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + piece.length * chunks + tail.length),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }),
        );
      },
    );
    req.on('error', reject);
    req.write(head, () => onStarted());
    let sent = 0;
    const timer = setInterval(() => {
      req.write(piece);
      if (++sent === chunks) {
        clearInterval(timer);
        req.end(tail);
      }
    }, gapMs);
  });
}

describe('a server told to stop by its supervisor (SIGTERM)', () => {
  it('drains with /api/health at 503, finishes the upload and submissions in flight, exits 0, and keeps every acknowledged submission', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'easyform-shutdown-'));
    const server = await startServer({ dataDir, env: { SHUTDOWN_DRAIN_SECONDS: '2' } });
    servers.push(server);
    const owner = await createOwner(server);
    const created = await call<Form>(server, owner, '/api/v1/length', { formTitle: 'Shutdown drill' });
    await call<Form>(server, owner, `/api/text/${created._id}`, { id: 1, name: 'Name', type: 'text' });
    const form = await call<Form>(server, owner, `/api/text/${created._id}`, { id: 5, name: 'Scan' });
    const nameId = fieldsOf(form).find((f) => f.name === 'Name')?._id ?? '';

    // Customers keep submitting until the server stops taking requests.
    const acknowledged: string[] = [];
    const refusals: string[] = [];
    let submitting = true;
    const customer = async (n: number) => {
      for (let i = 0; submitting; i++) {
        try {
          const response = await fetch(`${server.url}/api/forms/${owner.id}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              formStructureId: form._id,
              textObject: { [nameId]: `customer ${n}.${i}` },
              selectedValues: {},
              fileObject: {},
            }),
          });
          if (response.status === 200) acknowledged.push(((await response.json()) as { _id: string })._id);
          else {
            refusals.push(`HTTP ${response.status}`);
            await response.body?.cancel();
          }
        } catch (error) {
          refusals.push((error as Error).cause ? String((error as Error).cause) : String(error));
          return; // the server has stopped listening
        }
      }
    };
    const customers = Promise.all([1, 2, 3, 4].map(customer));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(acknowledged.length).toBeGreaterThan(0);

    // A phone's upload is under way (about 4 s of it) when the signal comes.
    let exit: Promise<number | null> | undefined;
    const upload = slowUpload(server.url, form._id, 16, 250, () => {
      exit = server.signal('SIGTERM');
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    // While it drains, it still answers, and tells a load balancer to go elsewhere.
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, draining: true });

    const uploaded = await upload;
    expect(uploaded.status, uploaded.body).toBe(200);
    expect(JSON.parse(uploaded.body)).toHaveProperty('file');
    // Its connection closes with the answer: kept alive, it would hold the shutdown until the client's idle timeout.
    expect(uploaded.connection).toBe('close');
    // On a failure, the end of what the server said (which request or job held it past 10 s).
    expect(await exit, server.output().split('\n').slice(-40).join('\n')).toBe(0);
    submitting = false;
    await customers;
    expect(refusals.length).toBeGreaterThan(0);

    // Started again on what it left: every submission answered 200 is there, and nothing else.
    const again = await startServer({ dataDir, mail: server.mail });
    servers.push(again);
    const page = await call<{ total: number }>(again, owner, `/api/formSubmissions/${form._id}`);
    expect(page.total).toBe(acknowledged.length);
    expect(new Set(acknowledged).size).toBe(acknowledged.length);
  });

  it('stops at once a webhook POST and an SMTP send that hang, exits 0, and sends both after the restart', async () => {
    // A receiver that takes the request and never answers (its timeout is 10 s), until it is told to.
    const received: string[] = [];
    let answer = false;
    const receiver = createHttpServer((req, res) => {
      received.push(String(req.headers['easyform-delivery']));
      req.resume();
      if (answer) res.end('ok');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverPort = (receiver.address() as { port: number }).port;
    // The mail goes through a relay to a capture; once `silent`, the relay's new connections are never greeted (the
    // greeting timeout is 10 s), as a stuck SMTP server's.
    const capture = await startMailCapture();
    const capturePort = Number(new URL(capture.url).port);
    const sockets: Socket[] = [];
    let silent = false;
    let silentConnections = 0;
    const relay = createTcpServer((socket) => {
      sockets.push(socket);
      if (silent) {
        silentConnections++;
        return;
      }
      const upstream = connect(capturePort, '127.0.0.1');
      sockets.push(upstream);
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayUrl = `smtp://127.0.0.1:${(relay.address() as { port: number }).port}`;
    const shutDir = await mkdtemp(join(tmpdir(), 'easyform-shutdown-hang-'));
    try {
      const server = await startServer({
        dataDir: shutDir,
        mail: { ...capture, url: relayUrl },
        env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
      });
      servers.push(server);
      const owner = await createOwner(server);
      const created = await call<Form>(server, owner, '/api/v1/length', { formTitle: 'Hanging receiver' });
      const form = await call<Form>(server, owner, `/api/text/${created._id}`, {
        id: 1,
        name: 'Name',
        type: 'text',
      });
      const nameId = fieldsOf(form).find((f) => f.name === 'Name')?._id ?? '';
      await call(server, owner, `/api/formWebhooks/${form._id}`, {
        url: `http://127.0.0.1:${receiverPort}/hook`,
      });
      // The one mail to wait for is the reset code: no response notification to the same address besides it.
      const quiet = await fetch(`${server.url}/api/formNotifications/${form._id}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ notifyOwner: false, respondentCopy: false }),
      });
      expect(quiet.status).toBe(200);

      // The SMTP server goes quiet (the pooled connection is cut, so the next send connects anew), a reset code is
      // asked for, and a response comes in for the webhook.
      silent = true;
      for (const socket of sockets.splice(0)) socket.destroy();
      const since = capture.mails.length;
      const otp = await fetch(`${server.url}/api/v1/sendOtp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: owner.email }),
      });
      expect(otp.status).toBe(200);
      const submitted = await fetch(`${server.url}/api/forms/${owner.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          formStructureId: form._id,
          textObject: { [nameId]: 'hello' },
          selectedValues: {},
          fileObject: {},
        }),
      });
      expect(submitted.status).toBe(200);
      for (let i = 0; i < 100 && (received.length === 0 || silentConnections === 0); i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toHaveLength(1);
      expect(silentConnections).toBeGreaterThan(0);

      const signalled = Date.now();
      const code = await server.signal('SIGTERM');
      const took = Date.now() - signalled;
      expect(code, server.output().split('\n').slice(-40).join('\n')).toBe(0);
      expect(took).toBeLessThan(5_000);
      expect(server.output()).not.toMatch(/did not finish within 10 s/);

      // Neither was given up nor counted as failed: after the restart both go out, the delivery under the same id.
      answer = true;
      silent = false;
      const again = await startServer({
        dataDir: shutDir,
        mail: capture,
        env: { WEBHOOK_ALLOW_PRIVATE: 'true' },
      });
      servers.push(again);
      expect((await capture.waitFor(owner.email, { since, timeoutMs: 20_000 })).text).toMatch(/\d{6}/);
      for (let i = 0; i < 200 && received.length < 2; i++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect(received).toHaveLength(2);
      expect(received[1]).toBe(received[0]);
      let delivery: WebhookView['deliveries'][number] | undefined;
      for (let i = 0; i < 50 && delivery?.status !== 'succeeded'; i++) {
        const list = await call<{ webhooks: WebhookView[] }>(again, owner, `/api/formWebhooks/${form._id}`);
        delivery = list.webhooks[0]?.deliveries[0];
        if (delivery?.status !== 'succeeded') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1 });
    } finally {
      for (const socket of sockets) socket.destroy();
      relay.close();
      receiver.closeAllConnections();
      receiver.close();
      await capture.close();
      await rm(shutDir, { recursive: true, force: true });
    }
  });
});
