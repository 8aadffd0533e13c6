import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSourcesOf } from '../app-sources.ts';
import { createTestApp, setUpTestApp, signUpOwner, type TestApp } from '../test-app.ts';
import { isPrivateAddress, publicOnlyLookup } from './address.ts';
import { postJson } from './post.ts';
import { createSender } from './sender.ts';
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

describe('webhooks', () => {
  const t = setUpTestApp({ webhookAllowPrivate: true, webhookPollMs: 50, webhookBackoffMs: 50 });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('delivers each response once, signed with the webhook secret', async () => {
    const owner = await signUpOwner(t);
    const form = await formWithName(t, owner.token, 'Signed up');
    const added = await addHook(t, owner.token, form._id, receiver.url);
    expect(added.statusCode).toBe(201);
    const { secret, id } = added.json<{ secret: string; id: string }>();
    expect(secret).toMatch(/^whsec_/);
    // The secret is answered once: the list does not show it.
    expect(JSON.stringify(await listHooks(t, owner.token, form._id))).not.toContain(secret);

    const since = receiver.received.length;
    const submissionId = await respond(t, form, 'Asha');
    await eventually(() => receiver.received.length > since);
    const [delivery] = receiver.received.slice(since);
    const header = String(delivery?.headers['easyform-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(secret, header, delivery?.body ?? '')).toBe(true);
    expect(verify('whsec_wrong', header, delivery?.body ?? '')).toBe(false);
    const payload = JSON.parse(delivery?.body ?? '{}');
    expect(payload).toMatchObject({
      event: 'response.created',
      form: { id: form._id, title: 'Signed up' },
      submission: { id: submissionId },
      answers: [{ question: 'Name', value: 'Asha', file: null }],
    });

    await eventually(
      async () => (await listHooks(t, owner.token, form._id))[0]?.deliveries[0]?.status === 'succeeded',
    );
    const [hook] = await listHooks(t, owner.token, form._id);
    expect(hook).toMatchObject({ id, url: receiver.url });
    expect(hook?.deliveries).toHaveLength(1);
    expect(hook?.deliveries[0]).toMatchObject({
      submissionId,
      attempts: 1,
      lastAttempt: { statusCode: 200 },
    });
    // Once: nothing more arrives on later polls.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.length).toBe(since + 1);
  });

  it('retries a failing receiver with backoff and logs every attempt', async () => {
    const owner = await signUpOwner(t);
    const form = await formWithName(t, owner.token, 'Flaky');
    expect((await addHook(t, owner.token, form._id, receiver.url)).statusCode).toBe(201);
    const since = receiver.received.length;
    receiver.plan.push(500, 500);
    const submissionId = await respond(t, form, 'Ravi');
    await eventually(
      async () => (await listHooks(t, owner.token, form._id))[0]?.deliveries[0]?.status === 'succeeded',
    );
    const [delivery] = (await listHooks(t, owner.token, form._id))[0]?.deliveries ?? [];
    expect(delivery).toMatchObject({
      submissionId,
      attempts: 3,
      lastAttempt: { statusCode: 200, error: null },
    });
    const attempts = await t.app.db.query<{
      status_code: number | null;
      error: string | null;
      duration_ms: number;
    }>(
      'select status_code, error, duration_ms from webhook_attempts where delivery_id = $1::bigint order by id',
      [delivery?.id],
    );
    expect(attempts.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(attempts.map((a) => a.error)).toEqual(['HTTP 500', 'HTTP 500', null]);
    expect(receiver.received.length - since).toBe(3);
    expect(receiver.received.slice(since).filter((r) => r.body.includes(submissionId))).toHaveLength(3);
  });

  it('refuses bad URLs, a sixth webhook, and another owner', async () => {
    const owner = await signUpOwner(t);
    const other = await signUpOwner(t);
    const form = await formWithName(t, owner.token, 'Guarded');
    for (const url of [
      'ftp://example.com/x',
      'javascript:alert(1)',
      'not a url',
      '',
      `https://e.com/${'a'.repeat(2000)}`,
    ])
      expect((await addHook(t, owner.token, form._id, url)).statusCode, url).toBe(400);
    const extra = await t.app.inject({
      method: 'POST',
      url: `/api/formWebhooks/${form._id}`,
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { url: 'https://example.com/', secret: 'mine' },
    });
    expect(extra.statusCode).toBe(400);

    for (let i = 0; i < 5; i++)
      expect((await addHook(t, owner.token, form._id, `https://example.com/${i}`)).statusCode).toBe(201);
    expect((await addHook(t, owner.token, form._id, 'https://example.com/6')).statusCode).toBe(400);
    const hooks = await listHooks(t, owner.token, form._id);
    expect(hooks).toHaveLength(5);

    const asOther = { authorization: `Bearer ${other.token}` };
    expect((await addHook(t, other.token, form._id, 'https://example.com/')).statusCode).toBe(404);
    const get = await t.app.inject({ method: 'GET', url: `/api/formWebhooks/${form._id}`, headers: asOther });
    expect(get.statusCode).toBe(404);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/formWebhooks/${form._id}/${hooks[0]?.id}`,
      headers: asOther,
    });
    expect(del.statusCode).toBe(404);
    const mine = await t.app.inject({
      method: 'DELETE',
      url: `/api/formWebhooks/${form._id}/${hooks[0]?.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(mine.statusCode).toBe(200);
    expect(await listHooks(t, owner.token, form._id)).toHaveLength(4);
  });
});

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
      const started = Date.now();
      await sender.run();
      const ended = Date.now();
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
});

describe('webhooks to private addresses', () => {
  it('refuses a URL resolving to loopback unless the operator allows it, and logs why', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({ webhookPollMs: 50, webhookBackoffMs: 60_000 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Internal');
      const port = new URL(receiver.url).port;
      expect((await addHook(t, owner.token, form._id, `http://localhost:${port}/hook`)).statusCode).toBe(201);
      await respond(t, form, 'Mallory');
      await eventually(
        async () => ((await listHooks(t, owner.token, form._id))[0]?.deliveries[0]?.attempts ?? 0) > 0,
      );
      const [delivery] = (await listHooks(t, owner.token, form._id))[0]?.deliveries ?? [];
      expect(delivery?.status).toBe('pending');
      expect(delivery?.lastAttempt?.statusCode).toBeNull();
      expect(delivery?.lastAttempt?.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1)/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await t.close();
      await receiver.close();
    }
  });

  it('checks the address it connects to, not only the one it looked up first (DNS rebinding)', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const options = { timeoutMs: 2000, lookup: publicOnlyLookup };
      await expect(
        postJson(new URL(`http://localhost:${port}/hook`), '{}', {}, options),
      ).rejects.toMatchObject({
        code: 'EWEBHOOKREFUSED',
      });
      expect(receiver.received).toHaveLength(0);
      // Without the guard (WEBHOOK_ALLOW_PRIVATE) the same request goes through.
      expect(
        await postJson(new URL(`http://localhost:${port}/hook`), '{}', {}, { ...options, lookup: undefined }),
      ).toBe(200);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it('knows the private, loopback, link-local and unspecified ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
