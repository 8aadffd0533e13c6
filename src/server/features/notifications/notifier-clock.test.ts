import { describe, expect, it, vi } from 'vitest';
import { setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';
import { NO_RATE_LIMITS } from '../../testing/test-population.ts';
import { eventually, mailsTo, notifyingForm, respond } from './test-fixture.ts';

// A short window, and no poll to make up for a late wake: the digest goes out when the notifier wakes for it.
const t = setUpTestApp({ notifyWindowMs: 1_500, notifyPollMs: 3_600_000, rateLimits: NO_RATE_LIMITS });

describe(`response notifications with a process clock off the database's (${TEST_ENGINE})`, () => {
  it("sends the digest when the window ends by the database's clock, the process's 20 minutes behind", async () => {
    const owner = await signUpOwner(t);
    const form = await notifyingForm(t, owner.token, { title: 'Clock' });
    const ofForm = () => mailsTo(t, owner.email).filter((m) => m.subject.includes('"Clock"'));
    // This process's clock runs 20 minutes behind; the database's is right. (PGlite runs in the process and reads its
    // clock: there the skew moves both, as it would in a real deployment.)
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.now() - 20 * 60_000);
    try {
      await respond(t, form, { name: 'First' });
      await eventually(() => ofForm().length === 1);
      await respond(t, form, { name: 'Second' });
      // Folded into the window, then sent when it ends (1.5 s), not 20 minutes later.
      await eventually(() => ofForm().length === 2, 8_000);
    } finally {
      vi.useRealTimers();
    }
    expect(ofForm()[1]?.text).toContain('Second');
  });
});
