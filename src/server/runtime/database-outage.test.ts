// PostgreSQL goes away while the app serves (a restart, a network cut) and comes back: customers are told 503 with
// Retry-After, /api/health says so, the log says what failed in one line, and the app recovers by itself.
// PostgreSQL only: the connection runs through a TCP relay on 127.0.0.1 that the test cuts and restores.
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import {
  createForm,
  createTestApp,
  createTestDatabase,
  signUpOwner,
  TEST_ENGINE,
  type TestApp,
} from '../testing/test-app.ts';

/** A TCP relay to PostgreSQL that can be cut (its connections reset, new ones refused), frozen, and restored. */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  let frozen = false;
  const listen = () =>
    new Promise<void>((resolve) => {
      if (server?.listening) return resolve();
      server = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => sockets.delete(s));
        }
        // Frozen, nothing is passed on either way: a PostgreSQL that stopped answering, its connections still open.
        client.on('data', (chunk) => void (frozen || upstream.write(chunk)));
        upstream.on('data', (chunk) => void (frozen || client.write(chunk)));
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server?.address() as { port: number }).port;
        resolve();
      });
    });
  await listen();
  return {
    url: () => {
      const url = new URL(target);
      url.host = `127.0.0.1:${port}`;
      // A password the log must never show (PostgreSQL's trust authentication ignores it).
      url.password = 'hunter2-not-for-logs';
      return url.toString();
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server?.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
    restore: listen,
    freeze: (on: boolean) => void (frozen = on),
  };
}

describe.skipIf(TEST_ENGINE !== 'postgres')('PostgreSQL away for a while', () => {
  let database: { url: string; drop(): Promise<void> };
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let t: TestApp;
  const as = ownerRequests(() => t);
  const log: string[] = [];
  let owner: { id: string };
  let form: Form;

  beforeAll(async () => {
    database = await createTestDatabase();
    relay = await startRelay(new URL(database.url));
    t = await createTestApp({
      databaseUrl: relay.url(),
      databaseQueryTimeoutMs: 3_000,
      // The background jobs poll while the database is away, so what they log then is seen too.
      notifyPollMs: 200,
      webhookPollMs: 200,
      logLevel: 'info',
      logStream: { write: (line) => void log.push(line) },
    });
    const signedUp = await signUpOwner(t);
    owner = signedUp;
    form = await createForm(t, signedUp.token);
    const added = await as(signedUp).post(`/api/text/${form._id}`, { id: 1, name: 'Name', type: 'text' });
    form = added.json<Form>();
  }, 60_000);
  afterAll(async () => {
    await relay?.restore();
    await t?.close();
    await relay?.cut();
    await database?.drop();
  });

  const submit = () =>
    t.app.inject({
      method: 'POST',
      url: `/api/forms/${owner.id}`,
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        formStructureId: form._id,
        textObject: { [fieldsOf(form)[0]?._id ?? 'Name']: 'Ravi' },
        selectedValues: {},
        fileObject: {},
      },
    });

  it('answers 503 with Retry-After meanwhile, says so at /api/health and in one log line, and recovers', async () => {
    expect((await submit()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await relay.cut();
    const since = log.length;
    const started = Date.now();
    const refused = await submit();
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
    // The page without JavaScript gets its page, 503 too.
    const page = await t.app.inject({
      method: 'POST',
      url: `/customer/${form._id}/${owner.id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'x=1',
    });
    expect(page.statusCode).toBe(503);
    expect(page.headers['retry-after']).toBe('30');
    expect(page.body).toMatch(/send your answers again in a minute/);

    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ ok: false, db: 'postgres', database: 'unreachable' });

    // The outbox's next pass meets the same outage: one warning naming it, retried later, no stack.
    await t.app.mailer.flush();
    const lines = log.slice(since).filter((l) => /"level":(40|50|60)/.test(l));
    expect(
      lines.some((l) => /"msg":"mail outbox could not be read; will retry: database unavailable \(/.test(l)),
    ).toBe(true);
    // On a failure, what was logged instead (once seen in CI, not reproduced: which error the pool met first).
    expect(
      lines.some((l) => /"msg":"database unavailable: .*ECONNREFUSED.*; answered 503"/.test(l)),
      lines.join('\n'),
    ).toBe(true);
    for (const line of lines) {
      expect(line).not.toMatch(/"stack"/);
      expect(line).not.toMatch(/hunter2/);
    }

    await relay.restore();
    // The pool reconnects on its own: the next submission is stored, health is back.
    expect((await submit()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 60_000);

  it('answers 503 within the query timeout while PostgreSQL holds its connections and never answers', async () => {
    relay.freeze(true);
    const started = Date.now();
    const refused = await submit();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(
      log.some((l) => /database unavailable: Query read timeout; answered 503/.test(l)),
      log.filter((l) => /"level":(40|50|60)/.test(l)).join('\n'),
    ).toBe(true);
    relay.freeze(false);
    expect((await submit()).statusCode).toBe(200);
  }, 60_000);
});
