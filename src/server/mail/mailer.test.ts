import { createServer, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, TEST_ENGINE, uniqueEmail, type TestApp } from '../testing/test-app.ts';
import { classifySmtpError, createMailer, type Mailer } from './mailer.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type OutboxRow = {
  attempts: number;
  last_error: string | null;
  sent_at: Date | null;
  failed_at: Date | null;
  text_body: string;
};
const outboxFor = async (email: string) =>
  (
    await t.app.db.query<OutboxRow>(
      'select attempts, last_error, sent_at, failed_at, text_body from mail_outbox where to_address = $1',
      [email],
    )
  )[0];

describe(`mail outbox on ${TEST_ENGINE}`, () => {
  it('keeps a mail the SMTP server refused, records why, and delivers it on a later attempt', async () => {
    const email = uniqueEmail();
    t.mail.refuseNext(1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/sendOtp',
      payload: { email: 'nobody@example.com' },
    });
    expect(res.statusCode).toBe(200);
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signUp',
      payload: { fullName: 'Ravi', email, password: 'long enough', confirmPassword: 'long enough' },
    });
    expect(signUp.statusCode).toBe(203);
    await t.app.mailer.flush();

    const failed = await outboxFor(email);
    expect(failed).toMatchObject({ attempts: 1, sent_at: null });
    expect(failed?.last_error).toMatch(/mailbox busy/);
    expect(t.mail.mails.some((m) => m.to.includes(email))).toBe(false);

    // The retry is scheduled with backoff; bring it forward instead of waiting.
    await t.app.db.query('update mail_outbox set next_attempt_at = now() where to_address = $1', [email]);
    await t.app.mailer.flush();
    const mail = await t.mail.waitFor(email);
    expect(mail.subject).toBe('Verify your email for Easy Form');
    const sent = await outboxFor(email);
    expect(sent).toMatchObject({ attempts: 2, last_error: null });
    expect(sent?.sent_at).toBeInstanceOf(Date);
  });

  /** Queues a mail straight into the outbox, as a feature's transaction does. */
  const enqueue = (to: string) =>
    t.app.mailer.enqueue(t.app.db, {
      to,
      subject: 'Hello',
      text: 'A secret link: https://x/verify?token=abc',
    });

  it('gives up a mail the SMTP server refuses for good, keeps why and not its body, and never sends it again', async () => {
    const email = uniqueEmail();
    t.mail.refuseNext(1, 'permanent');
    await enqueue(email);
    await t.app.mailer.flush();
    const failed = await outboxFor(email);
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, text_body: '' });
    expect(failed?.failed_at).toBeInstanceOf(Date);
    expect(failed?.last_error).toMatch(/mailbox unavailable/);

    await t.app.db.query('update mail_outbox set next_attempt_at = now() where to_address = $1', [email]);
    await t.app.mailer.flush();
    expect(await outboxFor(email)).toMatchObject({ attempts: 1, sent_at: null });
    expect(t.mail.mails.some((m) => m.to.includes(email))).toBe(false);
  });

  it('retries a temporary refusal, but gives the mail up once it has failed for a day', async () => {
    const email = uniqueEmail();
    await t.app.db.query(
      `insert into mail_outbox (to_address, subject, text_body, created_at) values ($1, 'Late', 'body', now() - interval '23 hours 59 minutes 55 seconds')`,
      [email],
    );
    t.mail.refuseNext(1);
    await t.app.mailer.flush();
    const row = await outboxFor(email);
    expect(row?.failed_at).toBeInstanceOf(Date);
    expect(row?.last_error).toMatch(/mailbox busy/);
  });

  it("gives a mail up for its age by the database's clock, not by a process's clock minutes off", async () => {
    // Two mails refused for now, queued by the database's clock 23 h 50 min and 24 h 10 min ago; the first retry
    // would come 15 s later. Only the second is past its day, whatever the clock of the process that sends them.
    // (PGlite runs in the process and reads its clock: there the skew moves both, as it would in a real deployment.)
    const skewed = async (email: string, age: string, skewMs: number) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(Date.now() + skewMs);
      try {
        await t.app.db.query(
          `insert into mail_outbox (to_address, subject, text_body, created_at) values ($1, 'Skewed', 'body', now() - $2::interval)`,
          [email, age],
        );
        t.mail.refuseNext(1);
        await t.app.mailer.flush();
      } finally {
        vi.useRealTimers();
      }
      return outboxFor(email);
    };
    // A process 20 minutes ahead would think the young mail past its day; one 20 minutes behind, the old one within it.
    const kept = await skewed(uniqueEmail(), '23 hours 50 minutes', 20 * 60_000);
    expect(kept).toMatchObject({ attempts: 1, sent_at: null, failed_at: null, text_body: 'body' });
    expect(kept?.last_error).toMatch(/mailbox busy/);
    const given = await skewed(uniqueEmail(), '24 hours 10 minutes', -20 * 60_000);
    expect(given).toMatchObject({ attempts: 1, sent_at: null, text_body: '' });
    expect(given?.failed_at).toBeInstanceOf(Date);
    expect(given?.last_error).toMatch(/mailbox busy/);
  });

  it('keeps retrying a mail while the SMTP server refuses the login, and delivers it once when the login is right', async () => {
    // A real SMTP server that wants a login and refuses the wrong password (535), as a misconfigured SMTP_URL meets.
    const received: string[] = [];
    const server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        if (auth.username === 'ef' && auth.password === 'right') callback(null, { user: 'ef' });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData(stream, session, callback) {
        stream.resume();
        stream.on('end', () => {
          received.push(...session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as { port: number };
    const errors: { obj: unknown; msg: string }[] = [];
    const log = Object.assign(Object.create(t.app.log) as typeof t.app.log, {
      error: (obj: unknown, msg: string) => errors.push({ obj, msg }),
      warn: vi.fn(),
      info: vi.fn(),
    });
    const mailerWith = (password: string) =>
      createMailer({
        db: t.app.db,
        smtpUrl: `smtp://ef:${password}@127.0.0.1:${port}`,
        from: 'ef@localhost',
        log,
      });
    const email = uniqueEmail();
    const wrong = mailerWith('wrong-secret');
    try {
      await enqueue(email);
      await wrong.flush();
      const waiting = await outboxFor(email);
      expect(waiting).toMatchObject({ attempts: 1, sent_at: null, failed_at: null });
      expect(waiting?.text_body).toMatch(/secret link/);
      expect(waiting?.last_error).toMatch(/535/);
      const said = errors.map((e) => e.msg).join('\n');
      expect(said).toMatch(/SMTP server refused the login.*SMTP_URL \(smtp:\/\/ef@127\.0\.0\.1:\d+\)/);
      expect(said + JSON.stringify(errors.map((e) => e.obj))).not.toMatch(/wrong-secret/);
      expect(said).not.toMatch(/given up/);

      // Even a mail older than a day is not given up for a login failure: the fault is the setting's, not the mail's.
      await t.app.db.query(
        `update mail_outbox set next_attempt_at = now(), created_at = now() - interval '2 days' where to_address = $1`,
        [email],
      );
      await wrong.flush();
      expect(await outboxFor(email)).toMatchObject({ attempts: 2, sent_at: null, failed_at: null });
      expect(received).toEqual([]);
    } finally {
      await wrong.close();
    }

    // The operator fixes SMTP_URL: the mail goes out, once.
    const right = mailerWith('right');
    try {
      await t.app.db.query('update mail_outbox set next_attempt_at = now() where to_address = $1', [email]);
      await right.flush();
      await right.flush();
      expect(received.filter((to) => to === email)).toHaveLength(1);
      expect(t.mail.mails.some((m) => m.to.includes(email))).toBe(false);
      const sent = await outboxFor(email);
      expect(sent).toMatchObject({ attempts: 3, last_error: null, text_body: '' });
      expect(sent?.sent_at).toBeInstanceOf(Date);
    } finally {
      await right.close();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    }
  });

  it('stops a send under way when closed, without waiting out the SMTP timeouts, and leaves the mail due', async () => {
    // An SMTP server that accepts the connection and never greets: the send would wait 10 s for its greeting.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const mailer = createMailer({
      db: t.app.db,
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'ef@localhost',
      log: t.app.log,
    });
    const email = uniqueEmail();
    try {
      await enqueue(email);
      const flushing = mailer.flush();
      while (sockets.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const started = Date.now();
      await mailer.close();
      await flushing;
      expect(Date.now() - started).toBeLessThan(2_000);
      // Not counted as an attempt, not given up, due at once for the next process or start.
      const [row] = await t.app.db.query<OutboxRow & { due: boolean }>(
        `select attempts, sent_at, failed_at, text_body, next_attempt_at <= now() as due from mail_outbox where to_address = $1`,
        [email],
      );
      expect(row).toMatchObject({ attempts: 0, sent_at: null, failed_at: null, due: true });
      await t.app.mailer.flush();
      await t.mail.waitFor(email);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('tells a refusal of the mail itself from a refusal of the login, the connection or the sender', () => {
    const err = (code: string, command: string, responseCode?: number) => ({ code, command, responseCode });
    expect(classifySmtpError(err('EENVELOPE', 'RCPT TO', 550))).toBe('refused');
    expect(classifySmtpError(err('EMESSAGE', 'DATA', 554))).toBe('refused');
    expect(classifySmtpError(err('EENVELOPE', 'API'))).toBe('refused');
    expect(classifySmtpError(err('EMESSAGE', 'DATA', 451))).toBe('temporary');
    expect(classifySmtpError(err('EAUTH', 'AUTH PLAIN', 535))).toBe('server');
    expect(classifySmtpError(err('EAUTH', 'AUTH LOGIN', 530))).toBe('server');
    expect(classifySmtpError(err('EENVELOPE', 'MAIL FROM', 553))).toBe('server');
    expect(classifySmtpError(err('ECONNECTION', 'CONN', 554))).toBe('server');
    expect(classifySmtpError(err('ETIMEDOUT', 'CONN'))).toBe('server');
    expect(classifySmtpError(new Error('connect ECONNREFUSED'))).toBe('server');
  });

  it('delivers each of 200 queued mails exactly once while two senders drain the outbox together', async () => {
    const prefix = `batch${Date.now()}`;
    const addresses = Array.from({ length: 200 }, (_, i) => `${prefix}.${i}@example.com`);
    await t.app.db.transaction(async (tx) => {
      for (const to of addresses) await t.app.mailer.enqueue(tx, { to, subject: 'One of many', text: to });
    });
    // A second sender on the same database: another process, as far as the outbox can tell.
    const second: Mailer = createMailer({
      db: t.app.db,
      smtpUrl: t.mail.url,
      from: 'Easy Form <no-reply@localhost>',
      log: t.app.log,
    });
    try {
      await Promise.all([t.app.mailer.flush(), second.flush(), t.app.mailer.flush(), second.flush()]);
    } finally {
      await second.close();
    }
    const received = t.mail.mails.flatMap((m) => m.to).filter((to) => to.startsWith(prefix));
    expect(received.sort()).toEqual([...addresses].sort());
    const [left] = await t.app.db.query<{ n: number }>(
      `select count(*)::int as n from mail_outbox where to_address like $1 and sent_at is null`,
      [`${prefix}%`],
    );
    expect(left?.n).toBe(0);
  });
});
