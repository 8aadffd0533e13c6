import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE, uniqueEmail } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { eventually, mailsTo, notifyingForm, respond } from './test-fixture.ts';

// A window long enough that nothing in a test ends it by itself; a test that needs it over brings it forward.
const t = setUpTestApp({ notifyWindowMs: 60_000, notifyPollMs: 100, rateLimits: NO_RATE_LIMITS });
const as = ownerRequests(() => t);

const settingsOf = (token: string, fid: string) => as(token).get(`/api/formNotifications/${fid}`);
const putSettings = (token: string, fid: string, payload: unknown) =>
  as(token).put(`/api/formNotifications/${fid}`, payload as object);

/** Ends the form's folding window now, as if its minutes had passed. */
const endWindow = async (formId: string) => {
  await t.app.db.query(
    `update notification_windows set owner_mailed_at = now() - interval '1 day' where form_id = $1`,
    [formId],
  );
  await t.app.db.query(
    'update response_events set not_before = now() where form_id = $1 and done_at is null',
    [formId],
  );
};

describe(`response notifications on ${TEST_ENGINE}`, () => {
  it('mails the owner one response with its answers by question, files by name, and a link to it', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'Rooms <for> "R&D"' });
    const since = t.mail.mails.length;
    const id = await respond(t, form, {
      name: 'Priya Sharma',
      email: 'priya@example.com',
      file: 'passport.pdf',
    });
    const mail = await t.mail.waitFor(owner.email, { since });
    expect(mail.subject).toBe('New response to "Rooms <for> "R&D""');
    expect(mail.text).toContain('Name: Priya Sharma');
    expect(mail.text).toContain('Room: Double');
    expect(mail.text).toContain('ID proof: passport.pdf');
    expect(mail.text).toContain(`http://easyform.test/submitedForm/${id}`);
    expect(mail.html).toContain('Rooms &lt;for&gt; &quot;R&amp;D&quot;');
    expect(mail.html).toContain(`href="http://easyform.test/submitedForm/${id}"`);
    // The owner has their own form; the respondent gets nothing while copies are off.
    expect(mailsTo(t, 'priya@example.com')).toHaveLength(0);
  });

  it('folds responses that arrive within the window into one digest: each response is in exactly one mail', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'Busy form' });
    const first = await respond(t, form, { name: 'First' });
    await eventually(() => mailsTo(t, owner.email).some((m) => m.subject.startsWith('New response')));
    const rest = await Promise.all(
      Array.from({ length: 9 }, (_, i) => respond(t, form, { name: `Guest ${i}` })),
    );
    // Inside the window: nothing more is sent until it ends.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(mailsTo(t, owner.email).filter((m) => m.subject.includes('Busy form'))).toHaveLength(1);
    await endWindow(form._id);
    await eventually(() =>
      mailsTo(t, owner.email).some((m) => m.subject === '9 new responses to "Busy form"'),
    );
    const mails = mailsTo(t, owner.email).filter((m) => m.subject.includes('Busy form'));
    expect(mails).toHaveLength(2);
    for (const id of [first, ...rest]) {
      expect(mails.filter((m) => m.text.includes(`/submitedForm/${id}`))).toHaveLength(1);
    }
    expect(mails[1]?.text).toContain('Guest 3');
  });

  it('sends nothing for a form whose owner turned notifications off', async () => {
    const owner = await signUpOwner(t);
    const quiet = await notifyingForm(t, owner.token, { title: 'Quiet form' });
    const loud = await notifyingForm(t, owner.token, { title: 'Loud form' });
    expect(
      (await putSettings(owner.token, quiet._id, { notifyOwner: false, respondentCopy: false })).statusCode,
    ).toBe(200);
    await respond(t, quiet, { name: 'Nobody hears', email: uniqueEmail('quiet') });
    await respond(t, loud, { name: 'Everybody hears' });
    await eventually(() => mailsTo(t, owner.email).some((m) => m.subject.includes('Loud form')));
    expect(mailsTo(t, owner.email).filter((m) => m.subject.includes('Quiet form'))).toHaveLength(0);
    const [events] = await t.app.db.query<{ n: number }>(
      'select count(*)::int as n from response_events where form_id = $1',
      [quiet._id],
    );
    expect(events?.n).toBe(0);
  });

  it('sends the respondent a copy at the typed address only when the owner turned it on, without links', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'Event sign-up' });
    const before = uniqueEmail('before');
    await respond(t, form, { name: 'Before', email: before });
    await eventually(() => mailsTo(t, owner.email).length > 0);
    expect(
      (await putSettings(owner.token, form._id, { notifyOwner: true, respondentCopy: true })).json(),
    ).toEqual({
      notifyOwner: true,
      respondentCopy: true,
      hasEmailQuestion: true,
    });
    const guest = uniqueEmail('guest');
    await respond(t, form, { name: 'Meera Iyer', email: guest, file: 'ticket.pdf' });
    const copy = await t.mail.waitFor(guest);
    expect(copy.subject).toBe('Your response to "Event sign-up"');
    expect(copy.text).toContain('Name: Meera Iyer');
    expect(copy.text).toContain('ID proof: ticket.pdf');
    expect(copy.text).toContain("the form's owner asked Easy Form");
    expect(copy.text).not.toMatch(/https?:\/\//);
    expect(copy.html).not.toContain('<a');
    expect(mailsTo(t, before)).toHaveLength(0);
    expect(mailsTo(t, owner.email).every((m) => !m.to.includes(guest))).toBe(true);
  });

  it('sends no copy for a form without an email question', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'No email here', email: false });
    const res = await putSettings(owner.token, form._id, { notifyOwner: true, respondentCopy: true });
    expect(res.json()).toMatchObject({ respondentCopy: true, hasEmailQuestion: false });
    await respond(t, form, { name: 'someone@example.com' });
    await eventually(() => mailsTo(t, owner.email).length > 0);
    expect(mailsTo(t, 'someone@example.com')).toHaveLength(0);
  });

  it('answers the submit with 200 when the SMTP server refuses, and mails the owner on a later attempt', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'Refused at first' });
    // The SMTP server refuses everything until this mail has been refused once (other tests' mail may be in flight).
    t.mail.refuseNext(1_000);
    const id = await respond(t, form, { name: 'Patient' });
    const outbox = () =>
      t.app.db.query<{ attempts: number; last_error: string | null }>(
        `select attempts, last_error from mail_outbox where to_address = $1 and subject like 'New response%'`,
        [owner.email],
      );
    await eventually(async () => ((await outbox())[0]?.attempts ?? 0) >= 1);
    t.mail.refuseNext(0);
    expect(await outbox()).toHaveLength(1);
    expect((await outbox())[0]?.last_error).toMatch(/mailbox busy/);
    await t.app.db.query('update mail_outbox set next_attempt_at = now() where to_address = $1', [
      owner.email,
    ]);
    const since = t.mail.mails.length;
    await t.app.mailer.flush();
    const mail = await t.mail.waitFor(owner.email, { since });
    expect(mail.text).toContain(`/submitedForm/${id}`);
  });
});

describe('GET/PUT /api/formNotifications/:fid', () => {
  it('gives a new form owner notifications on and respondent copies off', async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token);
    const res = await settingsOf(owner.token, form._id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ notifyOwner: true, respondentCopy: false, hasEmailQuestion: true });
  });

  it('refuses a bad body or id with 400, no token with 401, and another owner’s or unknown form with 404', async () => {
    const owner = await signUpOwner(t);
    const other = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token);
    const bad = await putSettings(owner.token, form._id, { notifyOwner: 'yes', respondentCopy: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
    expect(bad.json().error.message).toMatch(/notifyOwner/);
    expect((await putSettings(owner.token, form._id, { notifyOwner: true })).statusCode).toBe(400);
    expect((await settingsOf(owner.token, 'not-a-uuid')).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/formNotifications/${form._id}` })).statusCode,
    ).toBe(401);
    expect((await settingsOf(other.token, form._id)).statusCode).toBe(404);
    expect(
      (await putSettings(other.token, form._id, { notifyOwner: false, respondentCopy: true })).statusCode,
    ).toBe(404);
    expect((await settingsOf(owner.token, randomUUID())).statusCode).toBe(404);
    // Another owner's attempt changed nothing.
    expect((await settingsOf(owner.token, form._id)).json()).toMatchObject({
      notifyOwner: true,
      respondentCopy: false,
    });
  });
});
