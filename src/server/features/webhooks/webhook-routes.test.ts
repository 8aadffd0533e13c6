// The webhook's own routes: Send test, a new secret, and what every route answers to a stranger or a malformed id.
// Its deliveries (listing attempts, resending, pruning): webhook-deliveries.test.ts.
import { describe, expect, it } from 'vitest';
import type { WebhookAttempt } from '#common/webhooks.ts';
import { createTestApp, signUpOwner, type TestApp } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import {
  addHook,
  eventually,
  hooked,
  latestDelivery,
  latestOnce,
  listHooks,
  post,
  respond,
  setUpWebhookRoutes,
  startReceiver,
  verify,
} from './test-fixture.ts';

async function sendTest(t: TestApp, token: string, base: string): Promise<WebhookAttempt> {
  const res = await post(t, token, `${base}/test`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ attempt: WebhookAttempt }>().attempt;
}

describe('webhook routes', () => {
  const { t, receiver, as } = setUpWebhookRoutes();

  describe('POST /api/formWebhooks/:fid/:webhookId/test', () => {
    it('POSTs a signed webhook.test with an example answer per question and reports the 200', async () => {
      const hook = await hooked(t, receiver.url, 'Hostel');
      for (const field of [
        { id: 3, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }] },
        { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }] },
        { id: 5, name: 'ID proof' },
      ]) {
        const res = await as(hook.token).post(`/api/text/${hook.form._id}`, field);
        expect(res.statusCode, res.body).toBe(200);
      }
      const since = receiver.received.length;
      const attempt = await sendTest(t, hook.token, hook.base);
      expect(attempt).toMatchObject({ statusCode: 200, error: null });
      expect(Date.parse(attempt.at)).not.toBeNaN();
      expect(receiver.received.length).toBe(since + 1);
      const [request] = receiver.received.slice(since);
      expect(request?.headers['easyform-delivery']).toBe('test');
      expect(verify(hook.secret, String(request?.headers['easyform-signature']), request?.body ?? '')).toBe(
        true,
      );
      const payload = JSON.parse(request?.body ?? '{}');
      expect(payload).toMatchObject({
        event: 'webhook.test',
        deliveryId: 'test',
        form: { id: hook.form._id, title: 'Hostel' },
        answers: [
          { question: 'Name', kind: 'text', value: 'Example answer', file: null },
          { question: 'Room', kind: 'radio', value: 'Single', file: null },
          { question: 'Extras', kind: 'check', value: ['Wifi'], file: null },
          { question: 'ID proof', kind: 'file', value: null, file: null },
        ],
      });
      expect(payload.submission.id).toMatch(/^[0-9a-f-]{36}$/);
      // Not a delivery: nothing is logged.
      expect(await latestDelivery(t, hook.token, hook.form._id)).toBeUndefined();
    });

    it('reports a receiver answering 500 with its status and error, and does not retry', async () => {
      const hook = await hooked(t, receiver.url);
      receiver.plan.push(500);
      const since = receiver.received.length;
      expect(await sendTest(t, hook.token, hook.base)).toMatchObject({ statusCode: 500, error: 'HTTP 500' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received.length).toBe(since + 1);
    });

    it('reports an unreachable receiver with no status and the error', async () => {
      const hook = await hooked(t, 'http://127.0.0.1:1/hook');
      const attempt = await sendTest(t, hook.token, hook.base);
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/ECONNREFUSED/);
    });
  });

  describe('POST /api/formWebhooks/:fid/:webhookId/secret', () => {
    it('answers a new secret; the next delivery verifies with it and not with the old one', async () => {
      const hook = await hooked(t, receiver.url);
      const res = await post(t, hook.token, `${hook.base}/secret`);
      expect(res.statusCode).toBe(200);
      const { secret } = res.json<{ secret: string }>();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(secret).not.toBe(hook.secret);

      const since = receiver.received.length;
      await respond(t, hook.form, 'Mina');
      await eventually(() => receiver.received.length > since);
      const [request] = receiver.received.slice(since);
      const header = String(request?.headers['easyform-signature']);
      expect(verify(secret, header, request?.body ?? '')).toBe(true);
      expect(verify(hook.secret, header, request?.body ?? '')).toBe(false);
    });
  });

  describe('every route of one webhook', () => {
    it("answers 404 to another owner, an unknown webhook, and another webhook's delivery", async () => {
      const hook = await hooked(t, receiver.url);
      const otherHook = await addHook(t, hook.token, hook.form._id, receiver.url);
      const otherBase = `/api/formWebhooks/${hook.form._id}/${otherHook.json<{ id: string }>().id}`;
      await respond(t, hook.form, 'Owen');
      const deliveryId = (await latestOnce(t, hook, 'succeeded'))?.id ?? '';
      await t.app.db.query("update webhook_deliveries set status = 'failed' where id = $1::bigint", [
        deliveryId,
      ]);
      const stranger = await signUpOwner(t);
      const unknownBase = `/api/formWebhooks/${hook.form._id}/00000000-0000-4000-8000-000000000000`;
      const cases: [token: string, method: 'GET' | 'POST', url: string, message: string][] = [
        ...(['GET', 'POST'] as const).flatMap((method) => {
          const path = `/deliveries/${deliveryId}${method === 'POST' ? '/resend' : ''}`;
          return [
            [stranger.token, method, `${hook.base}${path}`, 'Webhook not found'],
            [hook.token, method, `${unknownBase}${path}`, 'Webhook not found'],
            [hook.token, method, `${otherBase}${path}`, 'Delivery not found'],
            [
              hook.token,
              method,
              `${hook.base}${path.replace(deliveryId, '999999999')}`,
              'Delivery not found',
            ],
          ] as [string, 'GET' | 'POST', string, string][];
        }),
        [stranger.token, 'POST', `${hook.base}/test`, 'Webhook not found'],
        [stranger.token, 'POST', `${hook.base}/secret`, 'Webhook not found'],
        [hook.token, 'POST', `${unknownBase}/test`, 'Webhook not found'],
        [hook.token, 'POST', `${unknownBase}/secret`, 'Webhook not found'],
      ];
      const since = receiver.received.length;
      for (const [token, method, url, message] of cases) {
        const res = await as(token).send(method, url);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json(), `${method} ${url}`).toEqual({ error: { code: 'NOT_FOUND', message } });
      }
      expect(receiver.received.length).toBe(since);
      // The secret is unchanged and the failed delivery was not resent.
      const [row] = await t.app.db.query<{ secret: string }>('select secret from webhooks where id = $1', [
        hook.webhookId,
      ]);
      expect(row?.secret).toBe(hook.secret);
      expect((await listHooks(t, hook.token, hook.form._id))[0]?.deliveries).toHaveLength(1);
    });

    it('answers 400 with a clear message to a malformed webhook or delivery id, never 500', async () => {
      const hook = await hooked(t, receiver.url);
      const formBase = `/api/formWebhooks/${hook.form._id}`;
      const cases: ['GET' | 'POST', string, string][] = [
        ['POST', `${formBase}/not-a-uuid/test`, 'webhookId: Not a valid webhook id'],
        ['POST', `${formBase}/123/secret`, 'webhookId: Not a valid webhook id'],
        ['GET', `${formBase}/not-a-uuid/deliveries/1`, 'webhookId: Not a valid webhook id'],
        ['POST', '/api/formWebhooks/abc/' + hook.webhookId + '/test', 'fid: Not a valid form id'],
        ...['abc', '0', '1'.repeat(30), '-1', '1.5'].flatMap((id): ['GET' | 'POST', string, string][] => [
          ['GET', `${hook.base}/deliveries/${id}`, 'deliveryId: Not a valid delivery id'],
          ['POST', `${hook.base}/deliveries/${id}/resend`, 'deliveryId: Not a valid delivery id'],
        ]),
      ];
      for (const [method, url, message] of cases) {
        const res = await as(hook.token).send(method, url);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json(), url).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
      }
    });
  });
});

describe('Send test without private receivers (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuses a loopback receiver without a request, and limits each owner to webhookTestPerOwner', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({
      rateLimits: { ...NO_RATE_LIMITS, webhookTestPerOwner: { max: 2, windowMs: 60_000 } },
    });
    /** A webhook added while its name did not resolve, whose name now resolves to the receiver on this machine. */
    const nowLoopback = async () => {
      const hook = await hooked(t, 'http://receiver.invalid/hook');
      await t.app.db.query('update webhooks set url = $1 where id = $2', [receiver.url, hook.webhookId]);
      return hook;
    };
    try {
      const hook = await nowLoopback();
      const attempt = await sendTest(t, hook.token, hook.base);
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
      await sendTest(t, hook.token, hook.base);
      const limited = await post(t, hook.token, `${hook.base}/test`);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          message: 'Too many test deliveries in a short time. Wait a minute and send another.',
        },
      });
      // Per owner: another owner still may.
      const other = await nowLoopback();
      expect((await post(t, other.token, `${other.base}/test`)).statusCode).toBe(200);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
