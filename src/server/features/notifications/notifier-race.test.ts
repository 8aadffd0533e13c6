import { describe, expect, it } from 'vitest';
import { notificationSourcesOf } from '../../app-sources.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, signUpOwner, TEST_ENGINE, uniqueEmail } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { createNotifier } from './notifier.ts';
import { eventually, mailsTo, notifyingForm, respond } from './test-fixture.ts';

// No folding window: every event is mailed at once, so a response mailed twice would show as two mails.
const t = setUpTestApp({ notifyWindowMs: 0, rateLimits: NO_RATE_LIMITS });
const as = ownerRequests(() => t);

describe(`race: several notifiers on one database (${TEST_ENGINE})`, () => {
  it('never mail a response twice: each owner notification and respondent copy is sent once', async () => {
    const owner = await signUpOwner(t);
    // Other processes' notifiers, as several app processes on one PostgreSQL run them.
    const others = [1, 2].map(() =>
      createNotifier({
        db: t.app.db,
        mailer: t.app.mailer,
        log: t.app.log,
        sources: notificationSourcesOf(t.app.config.formTimezone),
        publicUrl: t.app.config.publicUrl,
        timeZone: t.app.config.formTimezone,
        windowMs: 0,
        pollMs: 60_000,
        isBusy: () => false,
      }),
    );
    try {
      const forms = await Promise.all(
        [1, 2, 3].map((n) => notifyingForm(t, owner.token, { title: `Race ${n}` })),
      );
      for (const form of forms) {
        const res = await as(owner).put(`/api/formNotifications/${form._id}`, {
          notifyOwner: true,
          respondentCopy: true,
        });
        expect(res.statusCode).toBe(200);
      }
      const sent: { id: string; to: string }[] = [];
      const racing = others.map(async (notifier) => {
        for (let i = 0; i < 40; i++) {
          await notifier.run();
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      });
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          const form = forms[i % forms.length];
          if (!form) return;
          const to = uniqueEmail(`guest${i}`);
          sent.push({ id: await respond(t, form, { name: `Guest ${i}`, email: to }), to });
        }),
      );
      await Promise.all(racing);
      await Promise.all(others.map((n) => n.run()));
      await t.app.mailer.flush();
      await eventually(() => sent.every(({ to }) => mailsTo(t, to).length > 0));
      const ownerMails = () => mailsTo(t, owner.email).filter((m) => m.subject.includes('Race'));
      await eventually(() => sent.every(({ id }) => ownerMails().some((m) => m.text.includes(id))));
      // Let anything sent twice arrive before counting.
      await t.app.mailer.flush();
      for (const { id, to } of sent) {
        expect(mailsTo(t, to)).toHaveLength(1);
        expect(ownerMails().filter((m) => m.text.includes(id))).toHaveLength(1);
      }
    } finally {
      await Promise.all(others.map((n) => n.close()));
    }
  });
});
