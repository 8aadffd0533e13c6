import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, uniqueEmail, type TestApp } from '../test-app.ts';
import { createMailer, type Mailer } from './mailer.ts';

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
