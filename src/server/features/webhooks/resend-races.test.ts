// Resending a failed delivery while the owner deletes its response or its form, from another tab: each request gets
// its own answer (the resend 201 or 404), never a 500, and what was deleted stays deleted.
import { describe, expect, it } from 'vitest';
import { TEST_ENGINE } from '../../testing/test-app.ts';
import { eventually, hooked, post, respond, setUpWebhookRoutes } from './test-fixture.ts';

describe(`race: resending a delivery while its response or form is deleted, on ${TEST_ENGINE}`, () => {
  const { t, as } = setUpWebhookRoutes();

  /** A hooked form with `count` responses whose deliveries failed. */
  async function failedDeliveries(count: number) {
    const hook = await hooked(t, 'http://127.0.0.1:1/hook');
    for (let i = 0; i < count; i++) await respond(t, hook.form, `Guest ${i}`);
    const rows = () =>
      t.app.db.query<{ id: string; submission_id: string }>(
        'select id::text as id, submission_id from webhook_deliveries where webhook_id = $1',
        [hook.webhookId],
      );
    await eventually(async () => (await rows()).length === count);
    // Past the 24-hour window, the next failure gives each up: failed, and left alone by the sender.
    await t.app.db.query(
      "update webhook_deliveries set created_at = now() - interval '25 hours' where webhook_id = $1",
      [hook.webhookId],
    );
    const failed = () =>
      t.app.db.query("select 1 from webhook_deliveries where webhook_id = $1 and status = 'failed'", [
        hook.webhookId,
      ]);
    await eventually(async () => (await failed()).length === count);
    return { hook, deliveries: await rows() };
  }
  const deliveriesOf = async (submissionIds: string[]) =>
    t.app.db.query('select 1 from webhook_deliveries where submission_id = any($1::uuid[])', [submissionIds]);

  it('DELETE /api/forms/:userFormId racing the resend of its delivery: 200 and 201 or 404, the response gone', async () => {
    const { hook, deliveries } = await failedDeliveries(30);
    const answers = await Promise.all(
      deliveries.map(async (d) => {
        const [resend, deleted] = await Promise.all([
          post(t, hook.token, `${hook.base}/deliveries/${d.id}/resend`),
          as(hook.token).delete(`/api/forms/${d.submission_id}`),
        ]);
        return { resend: resend.statusCode, deleted: deleted.statusCode };
      }),
    );
    for (const answer of answers) {
      expect([201, 404]).toContain(answer.resend);
      expect(answer.deleted).toBe(200);
    }
    expect(await deliveriesOf(deliveries.map((d) => d.submission_id))).toEqual([]);
  });

  it('DELETE /api/deleteForm/:fid racing resends of its deliveries: the form gone, no resend answered 500', async () => {
    const forms = await Promise.all(Array.from({ length: 6 }, () => failedDeliveries(5)));
    const answers = await Promise.all(
      forms.map(async ({ hook, deliveries }) => {
        const [deleted, ...resends] = await Promise.all([
          as(hook.token).delete(`/api/deleteForm/${hook.form._id}`),
          ...deliveries.map((d) => post(t, hook.token, `${hook.base}/deliveries/${d.id}/resend`)),
        ]);
        return { deleted: deleted?.statusCode, resends: resends.map((r) => r.statusCode) };
      }),
    );
    for (const answer of answers) {
      expect(answer.deleted).toBe(200);
      for (const status of answer.resends) expect([201, 404]).toContain(status);
    }
    const ids = forms.flatMap((f) => f.deliveries.map((d) => d.submission_id));
    expect(await deliveriesOf(ids)).toEqual([]);
  });
});
