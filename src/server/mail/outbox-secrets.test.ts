import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  TEST_ENGINE,
  uniqueEmail,
  verificationLinkIn,
  type TestApp,
} from '../testing/test-app.ts';

// ADR 006 promises that a copy of the database yields no usable secret; the mail outbox carried the verification
// link and the reset code in plain text for good. These check the outbox and the log after real SMTP delivery.

/** Every log line the app writes, as text. */
const logCapture = () => {
  const lines: string[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(line) } };
};

let t: TestApp;
let log: ReturnType<typeof logCapture>;
let dev: TestApp;
let devLog: ReturnType<typeof logCapture>;
beforeAll(async () => {
  log = logCapture();
  devLog = logCapture();
  t = await createTestApp({ logLevel: 'info', logStream: log.stream });
  dev = await createTestApp({ logLevel: 'info', logStream: devLog.stream, smtpUrl: undefined });
});
afterAll(async () => {
  await t?.close();
  await dev?.close();
});

const outboxText = async (app: TestApp, email: string) =>
  JSON.stringify(await app.app.db.query('select * from mail_outbox where to_address = $1', [email]));
const post = (app: TestApp, url: string, payload: object) => app.app.inject({ method: 'POST', url, payload });
const signUp = (app: TestApp, email: string) =>
  post(app, '/api/v1/signUp', {
    fullName: 'Meera',
    email,
    password: 'long enough',
    confirmPassword: 'long enough',
  });
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? '';

describe(`secrets in the mail outbox on ${TEST_ENGINE}`, () => {
  it('keeps neither the verification link nor the reset code once the mail is sent, and logs neither', async () => {
    const email = uniqueEmail();
    expect((await signUp(t, email)).statusCode).toBe(203);
    const link = verificationLinkIn((await t.mail.waitFor(email)).text);
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(token).toHaveLength(43);
    // Following the link puts it in the request log, as any request is.
    expect(
      (await t.app.inject({ method: 'GET', url: new URL(link).pathname + new URL(link).search })).statusCode,
    ).toBe(303);

    const since = t.mail.mails.length;
    expect((await post(t, '/api/v1/sendOtp', { email })).statusCode).toBe(200);
    const code = codeIn((await t.mail.waitFor(email, { since })).text);
    expect(code).toMatch(/^\d{6}$/);
    const reset = await post(t, '/api/v1/updatePassword', {
      email,
      otp: code,
      password: 'a new password',
      confirmPassword: 'a new password',
    });
    expect(reset.statusCode).toBe(200);
    // The mailer marks a mail sent after the SMTP server took it; wait for that.
    await t.app.mailer.flush();

    const rows = await t.app.db.query<{ subject: string; text_body: string; sent_at: Date | null }>(
      'select subject, text_body, html_body, sent_at from mail_outbox where to_address = $1 order by created_at',
      [email],
    );
    expect(rows.map((r) => r.subject)).toEqual([
      'Verify your email for Easy Form',
      'Your Easy Form password reset code',
    ]);
    expect(rows.every((r) => r.sent_at instanceof Date && r.text_body === '')).toBe(true);
    const stored = await outboxText(t, email);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(code);

    const logged = log.lines.join('');
    expect(logged).toContain('/api/v1/verifyEmail?token=[redacted]');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(encodeURIComponent(token));
    expect(logged).not.toMatch(new RegExp(`\\b${code}\\b`));
  });

  it('keeps the whole mail while the SMTP server refuses it, and blanks it once it goes out', async () => {
    const email = uniqueEmail();
    t.mail.refuseNext(1);
    expect((await signUp(t, email)).statusCode).toBe(203);
    await t.app.mailer.flush();
    const [pending] = await t.app.db.query<{ text_body: string; sent_at: Date | null }>(
      'select text_body, sent_at from mail_outbox where to_address = $1',
      [email],
    );
    expect(pending?.sent_at).toBeNull();
    const kept = verificationLinkIn(pending?.text_body ?? '');

    await t.app.db.query('update mail_outbox set next_attempt_at = now() where to_address = $1', [email]);
    await t.app.mailer.flush();
    expect(verificationLinkIn((await t.mail.waitFor(email)).text)).toBe(kept);
    expect(await outboxText(t, email)).not.toContain(new URL(kept).searchParams.get('token'));
  });

  it('without SMTP_URL prints the link to the log, as documented, and still forgets it in the outbox', async () => {
    const email = uniqueEmail();
    expect((await signUp(dev, email)).statusCode).toBe(203);
    await dev.app.mailer.flush();
    const link = verificationLinkIn(devLog.lines.join(''));
    expect(await outboxText(dev, email)).not.toContain(new URL(link).searchParams.get('token'));
  });
});
