// The owner deleting a response while the sender is posting its delivery with others of the same pass: the deleted
// response's delivery leaves no trace, every other one is recorded once and never sent again, and neither the owner's
// delete nor the sender fails.
import { describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '#common/webhooks.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, TEST_ENGINE } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { eventually, hooked, listHooks, respond, setUpHoldingReceiver } from './test-fixture.ts';

describe(`race: deleting a response while its webhook is being sent, on ${TEST_ENGINE}`, () => {
  // The sender retries at once (backoff 0) so that a failed first attempt is due again in the very next pass.
  const t = setUpTestApp({
    webhookAllowPrivate: true,
    webhookPollMs: 50,
    webhookBackoffMs: 0,
    rateLimits: NO_RATE_LIMITS,
  });
  const as = ownerRequests(t);
  const receiver = setUpHoldingReceiver();

  /**
   * A hooked form whose first response ('First') is being posted, held by the receiver, while `names` are submitted;
   * once 'First' is answered (with `firstStatus`), the next pass posts all of `names` together and they are held.
   */
  async function passHeldWith(names: string[], firstStatus = 200) {
    const hook = await hooked(t, receiver.url);
    const before = receiver.names.length;
    const ids = new Map<string, string>();
    ids.set('First', await respond(t, hook.form, 'First'));
    await eventually(() => receiver.names.length === before + 1);
    for (const name of names) ids.set(name, await respond(t, hook.form, name));
    receiver.plan.push(firstStatus);
    receiver.release();
    const expected = firstStatus === 200 ? names.length : names.length + 1;
    await eventually(() => receiver.names.length === before + 1 + expected);
    return { hook, ids, sent: () => receiver.names.slice(before).filter((name) => name !== 'After') };
  }

  /** The owner's view of the webhook's deliveries, by the response's answer. */
  async function deliveriesByName(token: string, formId: string, ids: Map<string, string>) {
    const [webhook] = await listHooks(t, token, formId);
    const byName = new Map<string, WebhookDelivery>();
    for (const d of webhook?.deliveries ?? [])
      for (const [name, id] of ids) if (d.submissionId === id) byName.set(name, d);
    return byName;
  }

  /**
   * Makes every pending delivery of the webhook due now, as when the lease of a pass left unrecorded runs out, then
   * sends one more response and waits for it: the sender has taken every delivery that was due before it.
   */
  async function endLeases(hook: Awaited<ReturnType<typeof hooked>>) {
    await t.app.db.query(
      "update webhook_deliveries set next_attempt_at = now() where webhook_id = $1 and status = 'pending'",
      [hook.webhookId],
    );
    await respond(t, hook.form, 'After');
    await eventually(() => {
      receiver.release();
      return receiver.names.includes('After');
    });
    receiver.release();
  }

  it('DELETE /api/forms/:userFormId answered before the pass is answered: 200, and the rest recorded once', async () => {
    const names = ['Ana', 'Ben', 'Gone', 'Cyd'];
    const { hook, ids, sent } = await passHeldWith(names);
    const deleted = await as(hook.token).delete(`/api/forms/${ids.get('Gone')}`);
    expect(deleted.statusCode).toBe(200);
    receiver.release();

    const ok = ['First', 'Ana', 'Ben', 'Cyd'];
    await eventually(async () => {
      const byName = await deliveriesByName(hook.token, hook.form._id, ids);
      return ok.every((name) => byName.get(name)?.status === 'succeeded');
    });
    const byName = await deliveriesByName(hook.token, hook.form._id, ids);
    for (const name of ok) expect(byName.get(name)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(byName.has('Gone')).toBe(false);
    await endLeases(hook);
    expect(sent().sort()).toEqual([...ok, 'Gone'].sort());
  });

  // A deletion still under way when the pass records its attempts: the delivery is deleted but not yet committed,
  // as in a long bulk delete. Another session holds the delivery's earlier attempt, which the deletion's cascade
  // must delete too, so the deletion waits there for as long as the test needs. PGlite has one connection: there a
  // deletion never overlaps the record step.
  it.skipIf(TEST_ENGINE === 'pglite')(
    'DELETE /api/forms/:userFormId still under way when the pass is recorded: 200, and the rest recorded once',
    async () => {
      const names = ['Ana', 'Ben', 'Cyd'];
      // 'First' is the one deleted: its first attempt fails (500), so it has an attempt row, and it is retried in
      // the pass that posts the others.
      const { hook, ids, sent } = await passHeldWith(names, 500);
      const [first] = await t.app.db.query<{ id: string }>(
        'select id::text from webhook_deliveries where submission_id = $1',
        [ids.get('First')],
      );
      let endHold = () => {};
      const holding = new Promise<void>((resolve) => (endHold = resolve));
      let held = () => {};
      const holdTaken = new Promise<void>((resolve) => (held = resolve));
      const session = t.app.db.transaction(async (tx) => {
        await tx.query('select 1 from webhook_attempts where delivery_id = $1 for update', [first?.id]);
        held();
        await holding;
      });
      try {
        await holdTaken;
        /** The statements of this database waiting for a lock. */
        const waiting = () =>
          t.app.db
            .query<{ query: string }>(
              "select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
            )
            .then((rows) => rows.map((r) => r.query));
        const isWaiting = (statement: string) => async () =>
          (await waiting()).some((query) => query.includes(statement));
        const seen = async () => JSON.stringify(await waiting());
        const deleting = as(hook.token).delete(`/api/forms/${ids.get('First')}`);
        // It has deleted the delivery, not committed.
        await eventually(isWaiting('delete from submissions'), 10_000, seen);
        receiver.release();
        // The record step waits for the deletion (PostgreSQL shows a statement's first 1,024 bytes; its insert is
        // within them). Not "two statements wait": a background job may wait on the deletion's locks too.
        await eventually(isWaiting('insert into webhook_attempts'), 10_000, seen);
        endHold();
        await session;
        expect((await deleting).statusCode).toBe(200);
      } finally {
        endHold();
        await session;
      }

      // Nothing is sent twice, even once an unrecorded pass's lease would have run out.
      await endLeases(hook);
      const ok = ['Ana', 'Ben', 'Cyd'];
      expect(sent().sort()).toEqual(['First', 'First', ...ok].sort());
      const byName = await deliveriesByName(hook.token, hook.form._id, ids);
      for (const name of ok) expect(byName.get(name)).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(byName.has('First')).toBe(false);
      const [left] = await t.app.db.query<{ n: number }>(
        'select count(*)::int as n from webhook_attempts where delivery_id = $1::bigint',
        [first?.id],
      );
      expect(left?.n).toBe(0);
    },
  );
});
