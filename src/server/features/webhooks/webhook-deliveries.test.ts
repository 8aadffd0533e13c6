// A webhook's deliveries: listing a delivery's attempts, resending a failed one, and pruning finished ones. The
// webhook's own routes (Send test, secret, 404s and 400s): webhook-routes.test.ts.
import { describe, expect, it } from 'vitest';
import type { DeliveryAttempts, WebhookDelivery } from '#common/webhooks.ts';
import { pruneFinished } from '../../app-sources.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import type { TestApp } from '../../testing/test-app.ts';
import { hooked, latestOnce, listHooks, respond, setUpWebhookRoutes } from './test-fixture.ts';

async function attemptsOf(t: TestApp, token: string, base: string, id: string): Promise<DeliveryAttempts> {
  const res = await ownerRequests(t)(token).get(`${base}/deliveries/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<DeliveryAttempts>();
}

describe('webhook routes', () => {
  const { t, receiver, as } = setUpWebhookRoutes();

  describe('POST /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId/resend', () => {
    it('sends a failed delivery again as a new delivery, which succeeds; the old one stays failed', async () => {
      const hook = await hooked(t, receiver.url);
      receiver.plan.push(...Array<number>(50).fill(500));
      const submissionId = await respond(t, hook.form, 'Asha');
      await latestOnce(t, hook, (d) => d.attempts > 0);
      // Past the 24-hour window: the next failure gives it up.
      await t.app.db.query(
        "update webhook_deliveries set created_at = now() - interval '25 hours' where submission_id = $1",
        [submissionId],
      );
      const failed = await latestOnce(t, hook, 'failed');
      receiver.plan.length = 0;

      const since = receiver.received.length;
      const res = await as(hook.token).post(`${hook.base}/deliveries/${failed?.id}/resend`);
      expect(res.statusCode, res.body).toBe(201);
      const { delivery } = res.json<{ delivery: WebhookDelivery }>();
      expect(delivery).toMatchObject({ submissionId, status: 'pending', attempts: 0, lastAttempt: null });
      expect(delivery.id).not.toBe(failed?.id);
      expect(Date.now() - Date.parse(delivery.createdAt)).toBeLessThan(60_000);

      await latestOnce(t, hook, 'succeeded');
      expect(receiver.received.slice(since).filter((r) => r.body.includes(submissionId))).toHaveLength(1);
      const old = await attemptsOf(t, hook.token, hook.base, failed?.id ?? '');
      expect(old.delivery.status).toBe('failed');
      expect(old.attempts.every((a) => a.statusCode === 500)).toBe(true);
    });

    it('refuses with 409 a delivery that succeeded or is still pending', async () => {
      const ok = await hooked(t, receiver.url);
      await respond(t, ok.form, 'Ravi');
      const succeeded = await latestOnce(t, ok, 'succeeded');
      const down = await hooked(t, 'http://127.0.0.1:1/hook');
      await respond(t, down.form, 'Ravi');
      const pending = await latestOnce(t, down, (d) => d.attempts > 0);
      expect(pending?.status).toBe('pending');

      for (const [hook, delivery] of [
        [ok, succeeded],
        [down, pending],
      ] as const) {
        const res = await as(hook.token).post(`${hook.base}/deliveries/${delivery?.id}/resend`);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toEqual({
          error: { code: 'VALIDATION_FAILED', message: 'Only a failed delivery can be resent' },
        });
        expect(await listHooks(t, hook.token, hook.form._id).then((h) => h[0]?.deliveries)).toHaveLength(1);
      }
    });
  });

  describe('GET /api/formWebhooks/:fid/:webhookId/deliveries/:deliveryId', () => {
    it('lists every attempt, oldest first, of a delivery that failed twice and then succeeded', async () => {
      const hook = await hooked(t, receiver.url);
      receiver.plan.push(500, 503);
      const submissionId = await respond(t, hook.form, 'Lee');
      const listed = await latestOnce(t, hook, 'succeeded');
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

  describe('pruning in the hourly sweep', () => {
    it('deletes finished deliveries, processed events and sent mail after 30 days, and keeps the rest', async () => {
      const hook = await hooked(t, receiver.url);
      const submissionId = await respond(t, hook.form, 'Old');
      const today = (await latestOnce(t, hook, 'succeeded'))?.id ?? '';
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
