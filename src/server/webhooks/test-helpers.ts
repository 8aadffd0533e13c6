// What the webhook tests share: a real HTTP receiver, a receiver's signature check, and a form to respond to.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { WebhookView } from '#common/webhooks.ts';
import { createForm, type TestApp } from '../test-app.ts';

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

type Received = { headers: IncomingHttpHeaders; body: string };

/** A real HTTP receiver on 127.0.0.1: records each request and answers with the next planned status (then 200). */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  plan: number[];
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const plan: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = plan.shift() ?? 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    plan,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a receiver does: recompute the HMAC of "<t>.<body>" with the secret and compare in constant time. */
export function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const given = Buffer.from(parts.v1 ?? '', 'utf8');
  return given.length === expected.length && timingSafeEqual(given, Buffer.from(expected, 'utf8'));
}

export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

export async function formWithName(t: TestApp, token: string, title: string): Promise<Form> {
  const form = await createForm(t, token, { formTitle: title });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/text/${form._id}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { id: 1, name: 'Name', type: 'text', required: true },
  });
  return res.json<Form>();
}

export async function respond(t: TestApp, form: Form, name: string): Promise<string> {
  const nameId = fieldsOf(form).find((f) => f.name === 'Name')?._id ?? 'Name';
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: {
      formStructureId: form._id,
      textObject: { [nameId]: name },
      selectedValues: {},
      fileObject: {},
    },
  });
  if (res.statusCode !== 200) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return res.json<{ _id: string }>()._id;
}

export async function addHook(t: TestApp, token: string, formId: string, url: string) {
  return t.app.inject({
    method: 'POST',
    url: `/api/formWebhooks/${formId}`,
    headers: { authorization: `Bearer ${token}` },
    payload: { url },
  });
}

export async function listHooks(t: TestApp, token: string, formId: string): Promise<WebhookView[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/formWebhooks/${formId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ webhooks: WebhookView[] }>().webhooks;
}
