import { describe, expect, it, vi } from 'vitest';
import { webhookSourcesOf } from '../../app-sources.ts';
import { createTestApp, signUpOwner, type TestApp } from '../../testing/test-app.ts';
import { createSender } from './sender.ts';
import { addHook, formWithName, startReceiver } from './test-fixture.ts';

describe('webhook sender pass', () => {
  /** A sender of the test's own: it polls only when run (hourly otherwise), retries a minute later. */
  const senderOf = (t: TestApp, deps: Pick<Parameters<typeof createSender>[0], 'isBusy' | 'sources'>) =>
    createSender({
      db: t.app.db,
      log: t.app.log,
      allowPrivate: true,
      pollMs: 3_600_000,
      backoffMs: 60_000,
      timeoutMs: 5_000,
      ...deps,
    });

  /** A response written directly, not through a submit, which would nudge the app's own sender. */
  async function storedResponse(t: TestApp, formId: string, name: string): Promise<string> {
    const [row] = await t.app.db.query<{ id: string }>(
      `insert into submissions (form_id, owner_id, form_title, description, color, border, answers)
       select id, owner_id, title, '', '', '', $2::jsonb from forms where id = $1 returning id`,
      [formId, JSON.stringify([{ fieldId: 'name', kind: 'text', name: 'Name', value: name }])],
    );
    if (!row) throw new Error('no form');
    return row.id;
  }

  it('records every attempt of a pass: successes, a retry, and a response deleted while the pass ran', async () => {
    const ok = await startReceiver();
    const failing = await startReceiver();
    failing.plan.push(500);
    // The app's own sender stays idle (nothing here nudges it, its poll is an hour away): the pass is the test's.
    const t = await createTestApp({ webhookAllowPrivate: true, webhookPollMs: 3_600_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Batch');
      const flaky = await formWithName(t, owner.token, 'Batch, failing');
      expect((await addHook(t, owner.token, form._id, ok.url)).statusCode).toBe(201);
      expect((await addHook(t, owner.token, flaky._id, failing.url)).statusCode).toBe(201);
      const ana = await storedResponse(t, form._id, 'Ana');
      const ben = await storedResponse(t, form._id, 'Ben');
      const gone = await storedResponse(t, form._id, 'Gone');
      const cyd = await storedResponse(t, flaky._id, 'Cyd');
      const deliveries = await t.app.db.query<{ id: string; submission_id: string }>(
        `insert into webhook_deliveries (webhook_id, submission_id)
         select w.id, s.id from submissions s join webhooks w on w.form_id = s.form_id where s.id = any($1::uuid[])
         returning id::text, submission_id`,
        [[ana, ben, gone, cyd]],
      );
      const deliveryOf = (submissionId: string) =>
        deliveries.find((d) => d.submission_id === submissionId)?.id;

      const real = webhookSourcesOf(t.app.storage, 'http://easyform.test', 'UTC');
      const asked: string[][] = [];
      const sender = senderOf(t, {
        isBusy: () => false,
        sources: {
          ...real,
          // The owner deletes a response after the pass has claimed its delivery, before the payloads are read.
          findSubmissions: async (db, ids, ttl) => {
            asked.push([...ids].sort());
            await db.query('delete from submissions where id = $1', [gone]);
            return real.findSubmissions(db, ids, ttl);
          },
        },
      });
      // The database's clock, the one the retry is scheduled by.
      const dbNow = async () => (await t.app.db.query<{ now: Date }>('select now()'))[0]?.now.getTime() ?? 0;
      const started = await dbNow();
      await sender.run();
      const ended = await dbNow();
      await sender.close();

      // One pass, one read of the payloads for all four.
      expect(asked).toEqual([[ana, ben, gone, cyd].sort()]);
      expect(ok.received.map((r) => JSON.parse(r.body).answers[0].value).sort()).toEqual(['Ana', 'Ben']);
      expect(failing.received).toHaveLength(1);

      const rows = await t.app.db.query<{
        id: string;
        status: string;
        attempts: number;
        next_attempt_at: Date;
        status_code: number | null;
        error: string | null;
      }>(
        `select d.id::text, d.status, d.attempts, d.next_attempt_at, a.status_code, a.error
           from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id
          where d.id = any($1::bigint[])`,
        [deliveries.map((d) => d.id)],
      );
      const rowOf = (submissionId: string) => rows.find((r) => r.id === deliveryOf(submissionId));
      for (const id of [ana, ben])
        expect(rowOf(id)).toMatchObject({ status: 'succeeded', attempts: 1, status_code: 200, error: null });
      expect(rowOf(cyd)).toMatchObject({
        status: 'pending',
        attempts: 1,
        status_code: 500,
        error: 'HTTP 500',
      });
      // Retried after the first backoff, not after the claim's lease (timeout + 60 s).
      const retryAt = rowOf(cyd)?.next_attempt_at.getTime() ?? 0;
      expect(retryAt).toBeGreaterThanOrEqual(started + 60_000);
      expect(retryAt).toBeLessThanOrEqual(ended + 60_000);
      // The deleted response took its delivery with it: no attempt is logged for it, and the rest were recorded.
      expect(rowOf(gone)).toBeUndefined();
      expect(rows).toHaveLength(3);
      const [left] = await t.app.db.query<{ n: number }>(
        'select count(*)::int as n from webhook_deliveries where id = $1::bigint',
        [deliveryOf(gone)],
      );
      expect(left?.n).toBe(0);
    } finally {
      await t.close();
      await ok.close();
      await failing.close();
    }
  });

  it("makes each response's deliveries once per webhook from the submit's batch rows, leaving out a deleted one", async () => {
    const first = await startReceiver();
    const second = await startReceiver();
    const t = await createTestApp({ webhookAllowPrivate: true, webhookPollMs: 3_600_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Two hooks');
      for (const receiver of [first, second])
        expect((await addHook(t, owner.token, form._id, receiver.url)).statusCode).toBe(201);
      const names = ['Ana', 'Ben', 'Gone', 'Cyd', 'Dev'];
      const ids: string[] = [];
      for (const name of names) ids.push(await storedResponse(t, form._id, name));
      // As the submit's insert writes them: one row per group commit, here a batch of three and one of two, an hour
      // ago (the deliveries' 24-hour window runs from the response, not from when the sender got to it).
      await t.app.db.query(
        `insert into webhook_batches (form_id, submission_ids, created_at)
         values ($1, $2::uuid[], now() - interval '1 hour'), ($1, $3::uuid[], now() - interval '1 hour')`,
        [form._id, ids.slice(0, 3), ids.slice(3)],
      );
      await t.app.db.query('delete from submissions where id = $1', [ids[2]]);

      // Two senders at once (two processes): each batch is taken by one of them.
      const senders = [0, 1].map(() =>
        senderOf(t, {
          isBusy: () => false,
          sources: webhookSourcesOf(t.app.storage, 'http://easyform.test', 'UTC'),
        }),
      );
      await Promise.all(senders.map((s) => s.run()));
      await Promise.all(senders.map((s) => s.close()));

      const kept = names.filter((n) => n !== 'Gone').sort();
      for (const receiver of [first, second])
        expect(receiver.received.map((r) => JSON.parse(r.body).answers[0].value).sort()).toEqual(kept);
      const rows = await t.app.db.query<{ status: string; age_s: number }>(
        `select status, extract(epoch from now() - created_at)::int as age_s from webhook_deliveries`,
      );
      expect(rows).toHaveLength(8);
      for (const row of rows) {
        expect(row.status).toBe('succeeded');
        expect(row.age_s).toBeGreaterThanOrEqual(3_600);
      }
      const [left] = await t.app.db.query<{ n: number }>('select count(*)::int as n from webhook_batches');
      expect(left?.n).toBe(0);
    } finally {
      await t.close();
      await first.close();
      await second.close();
    }
  });

  it("schedules a retry and gives up by the database's clock, not by a process's clock minutes off", async () => {
    const failing = await startReceiver();
    const t = await createTestApp({ webhookAllowPrivate: true, webhookPollMs: 3_600_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Skewed');
      expect((await addHook(t, owner.token, form._id, failing.url)).statusCode).toBe(201);
      type Row = { status: string; attempts: number; next_attempt_at: Date };
      /**
       * One pass of a sender whose process clock is `skewMs` off the database's, over deliveries (all refused with a
       * 500) of responses that arrived, by the database's clock, `ages` ago; their rows after it, and the database's
       * now() before and after the pass. (PGlite runs in the process and reads its clock: there the skew moves both.)
       */
      const passWithClockOff = async (skewMs: number, ages: string[]) => {
        const ids: string[] = [];
        for (const age of ages) ids.push(await storedResponse(t, form._id, age));
        vi.useFakeTimers({ toFake: ['Date'] });
        vi.setSystemTime(Date.now() + skewMs);
        try {
          const deliveries = await t.app.db.query<{ id: string }>(
            `insert into webhook_deliveries (webhook_id, submission_id, created_at)
             select w.id, s.id, now() - ($2::text[])[u.n]::interval
               from unnest($1::uuid[]) with ordinality as u(id, n)
               join submissions s on s.id = u.id join webhooks w on w.form_id = s.form_id
              order by u.n
             returning id::text`,
            [ids, ages],
          );
          failing.plan.push(...ages.map(() => 500));
          const sender = senderOf(t, {
            isBusy: () => false,
            sources: webhookSourcesOf(t.app.storage, 'http://easyform.test', 'UTC'),
          });
          const dbNow = async () =>
            (await t.app.db.query<{ now: Date }>('select now()'))[0]?.now.getTime() ?? 0;
          const before = await dbNow();
          await sender.run();
          const after = await dbNow();
          await sender.close();
          const rows: Row[] = [];
          for (const d of deliveries) {
            const [row] = await t.app.db.query<Row>(
              'select status, attempts, next_attempt_at from webhook_deliveries where id = $1::bigint',
              [d.id],
            );
            if (row) rows.push(row);
          }
          return { rows, before, after };
        } finally {
          vi.useRealTimers();
        }
      };

      // 20 minutes ahead: a response 23 h 50 min old, retried a minute later, is still inside its day.
      const ahead = await passWithClockOff(20 * 60_000, ['23 hours 50 minutes']);
      expect(ahead.rows).toMatchObject([{ status: 'pending', attempts: 1 }]);
      // 20 minutes behind: a fresh response is retried a minute after the database's now (not 19 minutes before
      // it, due at once), and one 24 h 10 min old is given up.
      const behind = await passWithClockOff(-20 * 60_000, ['1 second', '24 hours 10 minutes']);
      expect(behind.rows).toMatchObject([
        { status: 'pending', attempts: 1 },
        { status: 'failed', attempts: 1 },
      ]);
      for (const { rows, before, after } of [ahead, behind]) {
        const retryAt = rows[0]?.next_attempt_at.getTime() ?? 0;
        expect(retryAt).toBeGreaterThanOrEqual(before + 60_000);
        expect(retryAt).toBeLessThanOrEqual(after + 60_000);
      }
    } finally {
      await t.close();
      await failing.close();
    }
  });

  it('sends one pass while customers keep the server busy, unless the deliveries have fallen a minute behind', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({ webhookAllowPrivate: true, webhookPollMs: 3_600_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Busy');
      expect((await addHook(t, owner.token, form._id, receiver.url)).statusCode).toBe(201);
      /** 25 deliveries (a pass claims 20) of responses stored `ageMs` ago; how many one run of a busy sender sends. */
      const sentByBusySender = async (ageMs: number) => {
        const ids: string[] = [];
        for (let i = 0; i < 25; i++) ids.push(await storedResponse(t, form._id, `R${i}`));
        await t.app.db.query(
          `insert into webhook_deliveries (webhook_id, submission_id, created_at, next_attempt_at)
           select w.id, s.id, now() - make_interval(secs => $2::double precision / 1000), now() - interval '1 second'
             from submissions s join webhooks w on w.form_id = s.form_id where s.id = any($1::uuid[])`,
          [ids, ageMs],
        );
        const before = receiver.received.length;
        const sender = senderOf(t, {
          isBusy: () => true,
          sources: webhookSourcesOf(t.app.storage, 'http://easyform.test', 'UTC'),
        });
        await sender.run();
        await sender.close();
        return receiver.received.length - before;
      };
      // Fresh: one pass of 20, the other 5 wait for the next pass (2 s later) or the end of the burst.
      expect(await sentByBusySender(1_000)).toBe(20);
      await t.app.db.query(`update webhook_deliveries set status = 'succeeded' where status = 'pending'`);
      // Two minutes behind: every pass at once, busy or not.
      expect(await sentByBusySender(120_000)).toBe(25);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
  it('makes a small share of the waiting deliveries a pass while customers keep the server busy, the rest after', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({ webhookAllowPrivate: true, webhookPollMs: 3_600_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Burst');
      expect((await addHook(t, owner.token, form._id, receiver.url)).statusCode).toBe(201);
      // Thirty responses of a burst, each in its batch row, as the submissions' insert leaves them.
      for (let i = 0; i < 30; i++) {
        const id = await storedResponse(t, form._id, `R${i}`);
        await t.app.db.query(
          'insert into webhook_batches (form_id, submission_ids) values ($1, array[$2::uuid])',
          [form._id, id],
        );
      }
      const made = async () =>
        (await t.app.db.query<{ n: number }>('select count(*)::int as n from webhook_deliveries'))[0]?.n;
      const sources = webhookSourcesOf(t.app.storage, 'http://easyform.test', 'UTC');
      const busy = senderOf(t, { isBusy: () => true, sources });
      await busy.run();
      await busy.close();
      expect(await made()).toBe(10);
      expect(receiver.received).toHaveLength(10);
      const idle = senderOf(t, { isBusy: () => false, sources });
      await idle.run();
      await idle.close();
      expect(await made()).toBe(30);
      expect(receiver.received.map((r) => JSON.parse(r.body).answers[0].value).sort()).toEqual(
        Array.from({ length: 30 }, (_, i) => `R${i}`).sort(),
      );
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
