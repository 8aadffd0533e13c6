import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryAttempts, WebhookAttempt, WebhookDelivery } from '#common/webhooks.ts';
import { pruneFinished } from '../app-sources.ts';
import { createTestApp, setUpTestApp, signUpOwner, type TestApp } from '../test-app.ts';
import { NO_RATE_LIMITS } from '../test-population.ts';
import {
  addHook,
  eventually,
  formWithName,
  listHooks,
  respond,
  startReceiver,
  verify,
  type Receiver,
} from './test-helpers.ts';

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A form with a Name question and a webhook to the receiver: the owner's token, the form, the webhook and secret. */
async function hooked(t: TestApp, url: string, title = 'Hooked') {
  const owner = await signUpOwner(t);
  const form = await formWithName(t, owner.token, title);
  const added = await addHook(t, owner.token, form._id, url);
  expect(added.statusCode).toBe(201);
  const { id, secret } = added.json<{ id: string; secret: string }>();
  return { token: owner.token, form, webhookId: id, secret, base: `/api/formWebhooks/${form._id}/${id}` };
}

const post = (t: TestApp, token: string, url: string) =>
  t.app.inject({ method: 'POST', url, headers: auth(token) });

async function sendTest(t: TestApp, token: string, base: string): Promise<WebhookAttempt> {
  const res = await post(t, token, `${base}/test`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ attempt: WebhookAttempt }>().attempt;
}

async function attemptsOf(t: TestApp, token: string, base: string, id: string): Promise<DeliveryAttempts> {
  const res = await t.app.inject({ method: 'GET', url: `${base}/deliveries/${id}`, headers: auth(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DeliveryAttempts>();
}

async function latestDelivery(
  t: TestApp,
  token: string,
  formId: string,
): Promise<WebhookDelivery | undefined> {
  return (await listHooks(t, token, formId))[0]?.deliveries[0];
}

describe('webhook routes', () => {
  const t = setUpTestApp({
    webhookAllowPrivate: true,
    webhookPollMs: 50,
    webhookBackoffMs: 50,
    rateLimits: NO_RATE_LIMITS,
  });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  describe('POST /api/formWebhooks/:fid/:webhookId/test', () => {
    it('POSTs a signed webhook.test with an example answer per question and reports the 200', async () => {
      const hook = await hooked(t, receiver.url, 'Hostel');
      for (const field of [
        { id: 3, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }] },
        { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }] },
        { id: 5, name: 'ID proof' },
      ]) {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/text/${hook.form._id}`,
          headers: auth(hook.token),
          payload: field,
        });
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

  describe('POST /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId/resend', () => {
    it('sends a failed delivery again as a new delivery, which succeeds; the old one stays failed', async () => {
      const hook = await hooked(t, receiver.url);
      receiver.plan.push(...Array<number>(50).fill(500));
      const submissionId = await respond(t, hook.form, 'Asha');
      await eventually(async () => ((await latestDelivery(t, hook.token, hook.form._id))?.attempts ?? 0) > 0);
      // Past the 24-hour window: the next failure gives it up.
      await t.app.db.query(
        "update webhook_deliveries set created_at = now() - interval '25 hours' where submission_id = $1",
        [submissionId],
      );
      await eventually(async () => (await latestDelivery(t, hook.token, hook.form._id))?.status === 'failed');
      receiver.plan.length = 0;
      const failed = await latestDelivery(t, hook.token, hook.form._id);

      const since = receiver.received.length;
      const res = await post(t, hook.token, `${hook.base}/deliveries/${failed?.id}/resend`);
      expect(res.statusCode, res.body).toBe(201);
      const { delivery } = res.json<{ delivery: WebhookDelivery }>();
      expect(delivery).toMatchObject({ submissionId, status: 'pending', attempts: 0, lastAttempt: null });
      expect(delivery.id).not.toBe(failed?.id);
      expect(Date.now() - Date.parse(delivery.createdAt)).toBeLessThan(60_000);

      await eventually(
        async () => (await latestDelivery(t, hook.token, hook.form._id))?.status === 'succeeded',
      );
      expect(receiver.received.slice(since).filter((r) => r.body.includes(submissionId))).toHaveLength(1);
      const old = await attemptsOf(t, hook.token, hook.base, failed?.id ?? '');
      expect(old.delivery.status).toBe('failed');
      expect(old.attempts.every((a) => a.statusCode === 500)).toBe(true);
    });

    it('refuses with 409 a delivery that succeeded or is still pending', async () => {
      const ok = await hooked(t, receiver.url);
      await respond(t, ok.form, 'Ravi');
      await eventually(async () => (await latestDelivery(t, ok.token, ok.form._id))?.status === 'succeeded');
      const succeeded = await latestDelivery(t, ok.token, ok.form._id);
      const down = await hooked(t, 'http://127.0.0.1:1/hook');
      await respond(t, down.form, 'Ravi');
      await eventually(async () => ((await latestDelivery(t, down.token, down.form._id))?.attempts ?? 0) > 0);
      const pending = await latestDelivery(t, down.token, down.form._id);
      expect(pending?.status).toBe('pending');

      for (const [hook, delivery] of [
        [ok, succeeded],
        [down, pending],
      ] as const) {
        const res = await post(t, hook.token, `${hook.base}/deliveries/${delivery?.id}/resend`);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({
          error: { code: 'VALIDATION_FAILED', message: 'Only a failed delivery can be resent' },
        });
        expect(await listHooks(t, hook.token, hook.form._id).then((h) => h[0]?.deliveries)).toHaveLength(1);
      }
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

  describe('GET /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId', () => {
    it('lists every attempt, oldest first, of a delivery that failed twice and then succeeded', async () => {
      const hook = await hooked(t, receiver.url);
      receiver.plan.push(500, 503);
      const submissionId = await respond(t, hook.form, 'Lee');
      await eventually(
        async () => (await latestDelivery(t, hook.token, hook.form._id))?.status === 'succeeded',
      );
      const listed = await latestDelivery(t, hook.token, hook.form._id);
      const { delivery, attempts } = await attemptsOf(t, hook.token, hook.base, listed?.id ?? '');
      expect(delivery).toEqual(listed);
      expect(delivery).toMatchObject({ submissionId, attempts: 3, nextAttemptAt: null });
      expect(attempts.map((a) => [a.statusCode, a.error])).toEqual([
        [500, 'HTTP 500'],
        [503, 'HTTP 503'],
        [200, null],
      ]);
      const times = attempts.map((a) => Date.parse(a.at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    });
  });

  describe('every route of one webhook', () => {
    it("answers 404 to another owner, an unknown webhook, and another webhook's delivery", async () => {
      const hook = await hooked(t, receiver.url);
      const otherHook = await addHook(t, hook.token, hook.form._id, receiver.url);
      const otherBase = `/api/formWebhooks/${hook.form._id}/${otherHook.json<{ id: string }>().id}`;
      await respond(t, hook.form, 'Owen');
      await eventually(
        async () => (await latestDelivery(t, hook.token, hook.form._id))?.status === 'succeeded',
      );
      const deliveryId = (await latestDelivery(t, hook.token, hook.form._id))?.id ?? '';
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
        const res = await t.app.inject({ method, url, headers: auth(token) });
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
        const res = await t.app.inject({ method, url, headers: auth(hook.token) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(400);
        expect(res.json(), url).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
      }
    });
  });

  describe('pruning in the hourly sweep', () => {
    it('deletes finished deliveries, processed events and sent mail after 30 days, and keeps the rest', async () => {
      const hook = await hooked(t, receiver.url);
      const submissionId = await respond(t, hook.form, 'Old');
      await eventually(
        async () => (await latestDelivery(t, hook.token, hook.form._id))?.status === 'succeeded',
      );
      const today = (await latestDelivery(t, hook.token, hook.form._id))?.id ?? '';
      const deliveryAged = async (status: string, age: string) => {
        const [row] = await t.app.db.query<{ id: string }>(
          `insert into webhook_deliveries (webhook_id, submission_id, status, created_at, next_attempt_at)
           values ($1, $2, $3, now() - $4::interval, now() + interval '1 day') returning id::text`,
          [hook.webhookId, submissionId, status, age],
        );
        return row?.id ?? '';
      };
      const oldSucceeded = await deliveryAged('succeeded', '31 days');
      const oldFailed = await deliveryAged('failed', '31 days');
      const oldPending = await deliveryAged('pending', '31 days');
      const recentFailed = await deliveryAged('failed', '29 days');
      await t.app.db.query(
        'insert into webhook_attempts (delivery_id, duration_ms, status_code) values ($1::bigint, 5, 200)',
        [oldSucceeded],
      );
      const mark = `prune-${hook.webhookId}`;
      await t.app.db.query(
        `insert into mail_outbox (to_address, subject, text_body, sent_at, created_at)
         values ($1, 'old sent', '', now() - interval '31 days', now() - interval '31 days'),
                ($1, 'recent sent', '', now() - interval '1 day', now() - interval '31 days'),
                ($1, 'old unsent', 'body', null, now() - interval '31 days')`,
        [`${mark}@example.com`],
      );
      await t.app.db.query(
        `insert into response_events (form_id, submission_ids, done_at, created_at)
         values ($1, '{}', now() - interval '31 days', now() - interval '31 days'),
                ($1, '{}', null, now() - interval '31 days')`,
        [hook.form._id],
      );

      await pruneFinished(t.app.db);

      const left = await t.app.db.query<{ id: string }>(
        'select id::text from webhook_deliveries where webhook_id = $1 and id = any($2::bigint[])',
        [hook.webhookId, [today, oldSucceeded, oldFailed, oldPending, recentFailed]],
      );
      expect(left.map((r) => r.id).sort()).toEqual([today, oldPending, recentFailed].sort());
      const attempts = await t.app.db.query('select 1 from webhook_attempts where delivery_id = $1::bigint', [
        oldSucceeded,
      ]);
      expect(attempts).toHaveLength(0);
      const mail = await t.app.db.query<{ subject: string }>(
        'select subject from mail_outbox where to_address = $1 order by subject',
        [`${mark}@example.com`],
      );
      expect(mail.map((m) => m.subject)).toEqual(['old unsent', 'recent sent']);
      const events = await t.app.db.query<{ done_at: Date | null }>(
        "select done_at from response_events where form_id = $1 and created_at < now() - interval '30 days'",
        [hook.form._id],
      );
      expect(events).toEqual([{ done_at: null }]);
    });
  });
});

describe('Send test without private receivers (WEBHOOK_ALLOW_PRIVATE off)', () => {
  it('refuses a loopback receiver without a request, and limits each owner to webhookTestPerOwner', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({
      rateLimits: { ...NO_RATE_LIMITS, webhookTestPerOwner: { max: 2, windowMs: 60_000 } },
    });
    try {
      const hook = await hooked(t, receiver.url);
      const attempt = await sendTest(t, hook.token, hook.base);
      expect(attempt.statusCode).toBeNull();
      expect(attempt.error).toMatch(/^refused: 127\.0\.0\.1 resolves to 127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
      await sendTest(t, hook.token, hook.base);
      const limited = await post(t, hook.token, `${hook.base}/test`);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      // Per owner: another owner still may.
      const other = await hooked(t, receiver.url);
      expect((await post(t, other.token, `${other.base}/test`)).statusCode).toBe(200);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
