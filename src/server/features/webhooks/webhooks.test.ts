import { describe, expect, it } from 'vitest';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner } from '../../testing/test-app.ts';
import { isPrivateAddress, publicOnlyLookup } from './address.ts';
import { postJson } from './post.ts';
import {
  addHook,
  eventually,
  formWithName,
  listHooks,
  respond,
  setUpWebhookRoutes,
  startReceiver,
  verify,
} from './test-fixture.ts';

describe('webhooks', () => {
  const { t, receiver } = setUpWebhookRoutes();
  const as = ownerRequests(t);

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
    const extra = await as(owner).post(`/api/formWebhooks/${form._id}`, {
      url: 'https://example.com/',
      secret: 'mine',
    });
    expect(extra.statusCode).toBe(400);

    for (let i = 0; i < 5; i++)
      expect((await addHook(t, owner.token, form._id, `https://example.com/${i}`)).statusCode).toBe(201);
    expect((await addHook(t, owner.token, form._id, 'https://example.com/6')).statusCode).toBe(400);
    const hooks = await listHooks(t, owner.token, form._id);
    expect(hooks).toHaveLength(5);

    expect((await addHook(t, other.token, form._id, 'https://example.com/')).statusCode).toBe(404);
    const get = await as(other).get(`/api/formWebhooks/${form._id}`);
    expect(get.statusCode).toBe(404);
    const del = await as(other).delete(`/api/formWebhooks/${form._id}/${hooks[0]?.id}`);
    expect(del.statusCode).toBe(404);
    const mine = await as(owner).delete(`/api/formWebhooks/${form._id}/${hooks[0]?.id}`);
    expect(mine.statusCode).toBe(200);
    expect(await listHooks(t, owner.token, form._id)).toHaveLength(4);
  });
});

describe('webhooks to private addresses', () => {
  it('refuses a receiver on a private or special-purpose address when it is added, naming why', async () => {
    const t = await createTestApp({ webhookPollMs: 50 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Internal');
      for (const url of [
        'http://127.0.0.1:9/hook',
        'http://localhost:9/hook',
        'http://[64:ff9b:1::a00:1]/hook',
      ]) {
        const res = await addHook(t, owner.token, form._id, url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error.message, url).toMatch(
          /^url: \S+ resolves to \S+, a private, loopback, link-local or otherwise special-purpose address$/,
        );
      }
      expect(await listHooks(t, owner.token, form._id)).toHaveLength(0);
      // Another owner's form stays a 404, whatever the address.
      const other = await signUpOwner(t);
      expect((await addHook(t, other.token, form._id, 'http://127.0.0.1:9/hook')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('gives up at once, not retried, a delivery whose receiver now resolves to a private address', async () => {
    const receiver = await startReceiver();
    const t = await createTestApp({ webhookPollMs: 50, webhookBackoffMs: 50 });
    try {
      const owner = await signUpOwner(t);
      const form = await formWithName(t, owner.token, 'Internal');
      const port = new URL(receiver.url).port;
      // Added while its name did not resolve; it now resolves to this machine, as a changed DNS record would.
      expect(
        (await addHook(t, owner.token, form._id, `http://receiver.invalid:${port}/hook`)).statusCode,
      ).toBe(201);
      await t.app.db.query('update webhooks set url = $1 where form_id = $2', [
        `http://localhost:${port}/hook`,
        form._id,
      ]);
      await respond(t, form, 'Mallory');
      const delivery = async () => (await listHooks(t, owner.token, form._id))[0]?.deliveries[0];
      await eventually(async () => (await delivery())?.status === 'failed');
      // Twenty times the back-off later, it was still tried once.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await delivery()).toMatchObject({ status: 'failed', attempts: 1 });
      expect((await delivery())?.lastAttempt?.error).toMatch(
        /^refused: localhost resolves to (127\.0\.0\.1|::1)/,
      );
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

  it('knows the private, loopback, link-local, unspecified and other special-purpose ranges', () => {
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
      // IPv4-compatible (deprecated) and IPv4-translated forms of 127.0.0.1, and the discard prefix.
      '::7f00:1',
      '::127.0.0.1',
      '::ffff:0:7f00:1',
      '100::1',
      // NAT64 (well-known and local-use), 6to4, Teredo, documentation, benchmarking, reserved, broadcast.
      '64:ff9b::a00:1',
      '64:ff9b:1::a00:1',
      '2002:7f00:1::1',
      '2001::1',
      '2001:db8::1',
      '198.18.0.1',
      '192.0.2.1',
      '240.0.0.1',
      '255.255.255.255',
    ])
      expect(isPrivateAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
  });
});
