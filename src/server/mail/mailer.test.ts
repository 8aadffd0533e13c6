import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_ENGINE, uniqueEmail, type TestApp } from '../test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type OutboxRow = { attempts: number; last_error: string | null; sent_at: Date | null };
const outboxFor = async (email: string) =>
  (
    await t.app.db.query<OutboxRow>(
      'select attempts, last_error, sent_at from mail_outbox where to_address = $1',
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
});
