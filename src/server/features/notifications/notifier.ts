// Turns recorded responses into outbox mail: the owner's notification (folded into a digest within a window) and
// the respondent's copy. docs/decisions/021-response-notifications.md.
import type { Queryable } from '../../db/database.ts';
import { logJobFailure } from '../../http/unavailable.ts';
import type { Mail } from '../../mail/mailer.ts';
import { createDrainLoop, createNudger } from '../../runtime/drain-loop.ts';
import type { FormForMail, NotifierDeps, SubmissionForMail } from './deps.ts';
import { DIGEST_LISTED, digestMail, respondentCopyMail, responseMail } from './mails.ts';
import * as repo from './repository.ts';

/** The owner is mailed at most once per form per window; a response alone after a quiet spell goes at once. */
export const NOTIFY_WINDOW_MS = 5 * 60_000;
export const NOTIFY_POLL_MS = 15_000;
/** Events claimed per transaction: each is one form's part of one batch of submissions. */
const CLAIM_LIMIT = 100;
/**
 * A nudge runs a pass this long after it, so that under load one pass serves many batches of submissions instead
 * of competing with each for the database.
 */
const NUDGE_DELAY_MS = 100;
/**
 * While customers keep the process busy, a nudge waits this long: each pass is a transaction, and on the embedded
 * engine every submit waits behind it, so fewer, fuller passes keep the customers' tail short (the bench's p99 with
 * notifications on). A digest is folded over minutes anyway; a lone response's mail goes a second later.
 */
const BUSY_NUDGE_DELAY_MS = 1_000;
/** Respondent copies per form per hour: a form cannot be made to mail strangers in bulk. */
export const COPIES_PER_FORM_HOUR = 100;

export type Notifier = {
  /** Look for work now, without waiting for it: called after each committed batch. */
  nudge(): void;
  /** One pass until nothing due is left; resolves when done. Never throws. */
  run(): Promise<void>;
  close(): Promise<void>;
};

export function createNotifier(deps: NotifierDeps): Notifier {
  const { db, log } = deps;
  let closed = false;
  let wake: NodeJS.Timeout | undefined;
  /**
   * Forms this process saw inside their window, until its end (on this process's clock, from how long the database
   * said was left): their new events wait for it, so they are not claimed (unless a respondent copy is due). Only a
   * shortcut: the database decides, whichever process looks.
   */
  const waiting = new Map<string, number>();

  /**
   * Wakes the notifier `waitMs` from now, when the earliest deferred window ends by the database's clock, so a digest
   * goes out on time without fast polling.
   */
  function wakeIn(waitMs: number): void {
    const delay = Math.max(0, waitMs) + 20;
    clearTimeout(wake);
    wake = setTimeout(() => void run(), delay);
    wake.unref();
  }

  async function pass(): Promise<{ full: boolean; mailed: boolean; nextWakeMs: number | null }> {
    return db.transaction(async (tx) => {
      const now = Date.now();
      for (const [formId, until] of waiting) if (until <= now) waiting.delete(formId);
      const events = await repo.claimDueEvents(tx, CLAIM_LIMIT, [...waiting.keys()]);
      const byForm = new Map<string, repo.ResponseEvent[]>();
      for (const e of events) byForm.set(e.formId, [...(byForm.get(e.formId) ?? []), e]);
      let mailed = false;
      let nextWakeMs: number | null = null;
      // Forms in one order in every process, so two passes that lock the same windows never deadlock.
      for (const formId of [...byForm.keys()].sort()) {
        const outcome = await notifyForm(tx, formId, byForm.get(formId) ?? []);
        mailed ||= outcome.mailed;
        if (outcome.waitMs !== null && (nextWakeMs === null || outcome.waitMs < nextWakeMs))
          nextWakeMs = outcome.waitMs;
      }
      // A window this process still counts as open keeps its form's events unclaimed: wake again when it ends here
      // too. A wake-up that came a little before it (a timer on a busy machine, a clock stepped back) would otherwise
      // leave its digest for the next poll, an hour away.
      for (const until of waiting.values())
        if (nextWakeMs === null || until - now < nextWakeMs) nextWakeMs = until - now;
      return { full: events.length === CLAIM_LIMIT, mailed, nextWakeMs };
    });
  }

  async function notifyForm(
    tx: Queryable,
    formId: string,
    events: repo.ResponseEvent[],
  ): Promise<{ mailed: boolean; waitMs: number | null }> {
    const ids = events.map((e) => e.id);
    const window = await repo.lockFormWindow(tx, formId, deps.windowMs);
    if (window?.waitMs != null) waiting.set(formId, Date.now() + window.waitMs);
    const uncopied = events.filter((e) => !e.copiesSent);
    const ownerDue = Boolean(window?.notifyOwner && !window.waitUntil);
    const copiesDue = Boolean(window?.respondentCopy && uncopied.length > 0);
    // The form (title, owner, questions) is read only when a mail is to be written.
    const form = window && (ownerDue || copiesDue) ? await deps.sources.findForm(tx, formId) : null;
    if (!window || ((ownerDue || copiesDue) && !form)) {
      await repo.markEventsDone(tx, ids);
      return { mailed: false, waitMs: null };
    }
    const mails: Mail[] = [];
    if (form && copiesDue) mails.push(...(await copiesFor(tx, formId, form, window, uncopied)));
    if (uncopied.length > 0)
      await repo.markCopiesSent(
        tx,
        uncopied.map((e) => e.id),
      );

    let waitMs: number | null = null;
    if (!window.notifyOwner) await repo.markEventsDone(tx, ids);
    else if (window.waitUntil) {
      waitMs = window.waitMs;
      await repo.deferEvents(tx, ids, window.waitUntil);
    } else if (form) {
      const ownerMail = await ownerMailFor(tx, formId, form, events);
      if (ownerMail) {
        mails.push(ownerMail);
        await repo.recordOwnerMailed(tx, formId);
      }
      await repo.markEventsDone(tx, ids);
    }
    for (const mail of mails) await deps.mailer.enqueue(tx, mail);
    return { mailed: mails.length > 0, waitMs };
  }

  /** One mail for the owner: the response alone, or a digest listing the first of them (only those are read). */
  async function ownerMailFor(
    tx: Queryable,
    formId: string,
    form: FormForMail,
    events: readonly repo.ResponseEvent[],
  ): Promise<Mail | null> {
    const ownerIds = events.flatMap((e) => e.submissionIds);
    const listed = await deps.sources.findSubmissions(tx, ownerIds.slice(0, DIGEST_LISTED));
    const context = {
      title: form.title,
      timeZone: deps.timeZone,
      linkOf: (id: string) => `${deps.publicUrl}/submitedForm/${id}`,
    };
    const [only] = listed;
    if (ownerIds.length === 1 && only) return responseMail(form.ownerEmail, only, context);
    if (listed.length === 0) return null;
    const allLink = `${deps.publicUrl}/formList?fid=${formId}`;
    return digestMail(form.ownerEmail, listed, ownerIds.length, { ...context, allLink });
  }

  /** Respondent copies, to the typed address, within the form's hourly allowance. */
  async function copiesFor(
    tx: Queryable,
    formId: string,
    form: FormForMail,
    window: repo.FormWindow,
    uncopied: readonly repo.ResponseEvent[],
  ): Promise<Mail[]> {
    if (form.emailQuestionIds.length === 0) return [];
    const submissions = await deps.sources.findSubmissions(
      tx,
      uncopied.flatMap((e) => e.submissionIds),
    );
    const context = { title: form.title, timeZone: deps.timeZone, site: siteOf(deps.publicUrl) };
    const copies = submissions.flatMap((s) => {
      const to = respondentAddressOf(s, form.emailQuestionIds);
      return to ? [respondentCopyMail(to, s, context)] : [];
    });
    const room = Math.max(0, COPIES_PER_FORM_HOUR - window.copiesThisHour);
    if (copies.length > room) {
      log.warn(
        { formId, skipped: copies.length - room },
        'respondent copies over the hourly limit were not sent',
      );
    }
    await repo.recordCopiesSent(tx, formId, Math.min(room, copies.length));
    return copies.slice(0, room);
  }

  /** One pass; true when it claimed a full load, so there may be more. */
  async function step(): Promise<boolean> {
    const { full, mailed, nextWakeMs } = await pass();
    // After commit: the outbox sends (and retries) on its own; a failing SMTP server never reaches here.
    if (mailed) void deps.mailer.flush();
    if (nextWakeMs !== null && !closed) wakeIn(nextWakeMs);
    return full;
  }
  const loop = createDrainLoop(step, (error) =>
    logJobFailure(log, error, 'response notifications could not be prepared; will retry'),
  );
  const run = loop.run;

  // Each poll forgets the shortcut, so a window ended elsewhere (another process, an operator) is seen within a poll.
  const timer = setInterval(() => {
    waiting.clear();
    void run();
  }, deps.pollMs);
  timer.unref();

  const nudger = createNudger(run, () => (deps.isBusy() ? BUSY_NUDGE_DELAY_MS : NUDGE_DELAY_MS));

  return {
    nudge() {
      if (!closed) nudger.nudge();
    },
    run,
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(wake);
      nudger.cancel();
      await loop.stop();
    },
  };
}

/** The first email question the respondent answered, as typed (the form validated it as an address). */
function respondentAddressOf(s: SubmissionForMail, emailQuestionIds: readonly string[]): string | null {
  for (const id of emailQuestionIds) {
    const answer = s.answers.find((a) => a.fieldId === id)?.text.trim();
    if (answer) return answer;
  }
  return null;
}

const siteOf = (publicUrl: string) => {
  try {
    return new URL(publicUrl).host;
  } catch {
    return publicUrl;
  }
};
