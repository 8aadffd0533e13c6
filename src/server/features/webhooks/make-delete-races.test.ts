// The owner deleting responses while the sender makes the deliveries of the batch that names them (PostgreSQL: PGlite
// has one connection, so a deletion never overlaps the sender's statement there). The sender makes and sends the
// others at once; a response whose deletion commits gets no delivery, one whose deletion rolls back gets its own; the
// owner's delete answers 200, and the sender logs no error. Likewise a webhook deleted under the sender's statement.
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, TEST_ENGINE } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { addHook, eventually, hooked, listHooks, respond, setUpHoldingReceiver } from './test-fixture.ts';

describe.skipIf(TEST_ENGINE === 'pglite')(
  `race: deleting responses while their deliveries are made, on ${TEST_ENGINE}`,
  () => {
    const log: string[] = [];
    // The sender runs when a submit nudges it (its poll is an hour away), as it does under a steady flow of responses.
    const t = setUpTestApp({
      webhookAllowPrivate: true,
      webhookPollMs: 3_600_000,
      webhookBackoffMs: 0,
      rateLimits: NO_RATE_LIMITS,
      logLevel: 'warn',
      logStream: { write: (line) => void log.push(line) },
    });
    const as = ownerRequests(t);
    const receiver = setUpHoldingReceiver();

    /**
     * A hooked form whose first response ('First') is being posted, held by the receiver, while `names` are submitted:
     * the sender makes their deliveries in its next pass, when the receiver answers.
     */
    async function waitingBatch(names: string[]) {
      const hook = await hooked(t, receiver.url);
      const before = receiver.names.length;
      const logged = log.length;
      const ids = new Map<string, string>();
      ids.set('First', await respond(t, hook.form, 'First'));
      await eventually(() => receiver.names.length === before + 1);
      for (const name of names) ids.set(name, await respond(t, hook.form, name));
      const id = (name: string) => ids.get(name) ?? '';
      return {
        hook,
        ids,
        id,
        received: () => receiver.names.slice(before),
        /** What the sender warned of or failed at since. */
        senderTrouble: () =>
          log.slice(logged).filter((l) => /"level":(40|50|60)/.test(l) && /webhook/.test(l)),
      };
    }

    /** The queries of this database waiting for a lock. */
    const waiting = async () =>
      (
        await t.app.db.query<{ query: string }>(
          "select query from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
        )
      ).map((r) => r.query);

    /**
     * Starts the owner's `deletion` while a second session holds a row the deletion needs (`lock`, a locking select):
     * the deletion is under way, its responses locked, until `end()`. Resolves once the deletion waits.
     */
    async function heldDeletion(
      lock: [string, unknown[]],
      deletion: () => Promise<LightMyRequestResponse>,
    ): Promise<{ deleting: Promise<LightMyRequestResponse>; end(): Promise<void> }> {
      let endHold = () => {};
      const holding = new Promise<void>((resolve) => (endHold = resolve));
      let held = () => {};
      const holdTaken = new Promise<void>((resolve) => (held = resolve));
      const session = t.app.db.transaction(async (tx) => {
        await tx.query(...lock);
        held();
        await holding;
      });
      await holdTaken;
      const deleting = deletion();
      await eventually(async () => (await waiting()).length > 0);
      return {
        deleting,
        async end() {
          endHold();
          await session;
        },
      };
    }

    /**
     * Sends one more response and waits until it is received and every delivery of the webhook is recorded: every
     * pass before it is over, and so is the one that posted it (with whatever else was due then).
     */
    async function drained(hook: Awaited<ReturnType<typeof hooked>>, received: () => string[]) {
      await respond(t, hook.form, 'After');
      await eventually(async () => {
        receiver.release();
        return received().includes('After') && (await allRecorded(hook.webhookId));
      });
    }

    /** Whether every delivery of the webhook has its attempt recorded (none pending: the receiver answers 200). */
    const allRecorded = async (webhookId: string) => {
      const [pending] = await t.app.db.query<{ n: number }>(
        "select count(*)::int as n from webhook_deliveries where webhook_id = $1 and status = 'pending'",
        [webhookId],
      );
      return pending?.n === 0;
    };

    /** Each response's deliveries in the owner's view: status and attempts, by its answer. */
    async function deliveries(hook: Awaited<ReturnType<typeof hooked>>, ids: Map<string, string>) {
      const [webhook] = await listHooks(t, hook.token, hook.form._id);
      const view: Record<string, { status: string; attempts: number }[]> = {};
      for (const [name, id] of ids)
        view[name] = (webhook?.deliveries ?? [])
          .filter((d) => d.submissionId === id)
          .map((d) => ({ status: d.status, attempts: d.attempts }));
      return view;
    }

    const once = [{ status: 'succeeded', attempts: 1 }];

    it('DELETE /api/forms/:userFormId under way: the others are sent meanwhile, the deleted one never, 200', async () => {
      const { hook, ids, id, received, senderTrouble } = await waitingBatch(['Ana', 'Gone', 'Ben']);
      const { deleting, end } = await heldDeletion(
        ['select 1 from form_quarter_counts where form_id = $1 for update', [hook.form._id]],
        () => as(hook.token).delete(`/api/forms/${id('Gone')}`),
      );
      try {
        receiver.release(); // 'First' is answered: the sender's next pass makes the batch's deliveries
        await eventually(async () => received().length === 3 || (await waiting()).length > 1);
        expect(received().sort()).toEqual(['Ana', 'Ben', 'First']);
      } finally {
        await end();
      }
      expect((await deleting).statusCode).toBe(200);

      await drained(hook, received);
      expect(received().sort()).toEqual(['After', 'Ana', 'Ben', 'First']);
      expect(await deliveries(hook, ids)).toEqual({ First: once, Ana: once, Ben: once, Gone: [] });
      expect(senderTrouble()).toEqual([]);
    });

    it('a deletion under way that rolls back: its response is sent too, once', async () => {
      const { hook, ids, id, received, senderTrouble } = await waitingBatch(['Ana', 'Kept', 'Ben']);
      const { deleting, end } = await heldDeletion(
        ['select 1 from form_quarter_counts where form_id = $1 for update', [hook.form._id]],
        () => as(hook.token).delete(`/api/forms/${id('Kept')}`),
      );
      try {
        receiver.release();
        await eventually(async () => received().length === 3 || (await waiting()).length > 1);
        expect(received().sort()).toEqual(['Ana', 'Ben', 'First']);
        // The deletion is cancelled (as by a statement timeout) and rolls back: the owner is told it failed.
        await t.app.db.query(
          `select pg_cancel_backend(pid) from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and query like '%delete from submissions%'`,
        );
        expect((await deleting).statusCode).toBe(500);
      } finally {
        await end();
      }

      await drained(hook, received);
      expect(received().sort()).toEqual(['After', 'Ana', 'Ben', 'First', 'Kept']);
      expect(await deliveries(hook, ids)).toEqual({ First: once, Ana: once, Kept: once, Ben: once });
      expect(senderTrouble()).toEqual([]);
    });

    // The statement sees the webhook, and checks each delivery's foreign key on it after its deletion commits.
    it('DELETE of a second webhook of the form while the batch is made: the first gets every response at once', async () => {
      const { hook, ids, received, senderTrouble } = await waitingBatch(['Ana', 'Ben']);
      const second = await addHook(t, hook.token, hook.form._id, `${receiver.url}?second`);
      const secondId = second.json<{ id: string }>().id;
      const { deleting, end } = await heldDeletion(
        ['select 1 from webhooks where id = $1 for update', [secondId]],
        () => as(hook.token).delete(`/api/formWebhooks/${hook.form._id}/${secondId}`),
      );
      try {
        receiver.release(); // 'First' is answered: the sender's next pass makes the batch's deliveries
        await eventually(async () =>
          // The sender's statement (its insert's foreign-key check waits on the webhook), known by its opening:
          // PostgreSQL keeps only a statement's first 1,024 bytes, which its insert lies near the end of.
          (await waiting()).some((q) => q.startsWith('with taken as materialized')),
        );
      } finally {
        await end();
      }
      expect((await deleting).statusCode).toBe(200);
      // No poll comes (an hour away): the pass itself makes and sends them.
      await eventually(async () => {
        receiver.release();
        return received().length === 3 && (await allRecorded(hook.webhookId));
      });
      expect(received().sort()).toEqual(['Ana', 'Ben', 'First']);
      expect(await deliveries(hook, ids)).toEqual({ First: once, Ana: once, Ben: once });
      expect(senderTrouble()).toEqual([]);
    });

    // The batch names responses in the order they came; a bulk delete locks them in id order. Here the batch names X
    // before Y and Y's id is the lower: the delete waits for Y (a second session holds it) while the sender's pass runs.
    it('the bulk delete of two responses the batch names out of id order: 200, no deadlock, the rest sent once', async () => {
      const names = ['R0', 'R1', 'R2', 'R3', 'R4', 'R5'];
      const { hook, ids, id, received, senderTrouble } = await waitingBatch(names);
      const pairs = names.flatMap((x, i) =>
        names.slice(i + 1).flatMap((y) => (id(y) < id(x) ? [[x, y]] : [])),
      );
      const [x, y] = pairs[0] ?? [];
      if (!x || !y) throw new Error('six random ids in increasing order: run the test again');
      const { deleting, end } = await heldDeletion(
        ['select 1 from submissions where id = $1 for update', [id(y)]],
        () => as(hook.token).post(`/api/formSubmissions/${hook.form._id}/delete`, { ids: [id(x), id(y)] }),
      );
      try {
        // The sender's pass runs (its POSTs answered as they come) until it waits for the deletion too.
        await eventually(async () => {
          receiver.release();
          return (await waiting()).length > 1;
        });
      } finally {
        await end();
      }
      const deleted = await deleting;
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ deleted: 2 });

      await drained(hook, received);
      const rest = names.filter((name) => name !== x && name !== y);
      const sent = received().filter((name) => name !== x); // x's delivery may have been posted before it was deleted
      expect(sent.sort()).toEqual(['After', 'First', ...rest].sort());
      const expected = Object.fromEntries(
        [...ids.keys()].map((name) => [name, rest.includes(name) ? once : []]),
      );
      expect(await deliveries(hook, ids)).toEqual({ ...expected, First: once });
      expect(senderTrouble()).toEqual([]);
    });
  },
);
