// Sends each new response to the form's webhooks: durable deliveries (made from the row the submissions' insert
// writes), claimed with `for update skip locked` and leased, POSTed outside any transaction, retried with
// exponential backoff for 24 hours, every attempt logged. docs/decisions/023-webhooks.md.
import { logJobFailure } from '../../http/unavailable.ts';
import { createDrainLoop, createNudger } from '../../runtime/drain-loop.ts';
import * as repo from './delivery-queue.ts';
import type { SenderDeps, SubmissionForWebhook } from './deps.ts';
import { messageOf, refusedAttempt, sendSigned, type Attempt } from './send-signed.ts';

export const WEBHOOK_POLL_MS = 15_000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The first retry waits this long; each next one twice as long as the one before, up to an hour. */
export const WEBHOOK_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60_000;
/** A delivery still failing this long after its response arrived is given up. */
export const WEBHOOK_GIVE_UP_MS = 24 * 60 * 60_000;
/** File URLs in a payload stay valid this long, so a receiver that was down for the whole retry window can fetch them. */
export const FILE_URL_TTL_SECONDS = 7 * 24 * 60 * 60;
/** Deliveries claimed and sent together by one pass. */
const CLAIM_LIMIT = 20;
/** Batches of new responses a pass makes deliveries of (a batch is one form's share of one group commit). */
const BATCH_LIMIT = 200;
/**
 * While customers keep the process busy, a pass makes the deliveries of this many batches, in one statement, enough
 * for its claim: the embedded engine runs one statement at a time, and a statement making 200 batches' deliveries
 * held every submit behind it for tens of milliseconds (the bench's p99 with a webhook on); twenty small ones a pass,
 * 6 ms each, still took a tenth of the engine's time during a burst. The rest wait in their batch rows, durable, for
 * the end of the burst. Should the deliveries fall behind (MAX_LAG_MS), a pass makes up to BATCH_LIMIT again, in
 * statements this small, between which the submits go first.
 */
const BUSY_BATCH_CHUNK = 10;
const NUDGE_DELAY_MS = 100;
/**
 * While customers keep the process busy (deps.isBusy: load-gauge.ts), a pass waits until this long after the one
 * before: deliveries go on at a trickle and never take a core from a submit; the backlog, durable in the table,
 * drains at full speed once the burst is over.
 */
const BUSY_PASS_GAP_MS = 2_000;
/**
 * Unless the deliveries fall this far behind: a load that never ends must not hold them back until they give up
 * (24 h). A pass that claims a response older than this makes the next ones go at full speed, busy or not.
 */
const MAX_LAG_MS = 60_000;

export type Sender = {
  nudge(): void;
  run(): Promise<void>;
  close(): Promise<void>;
};

export function createSender(deps: SenderDeps): Sender {
  const { db, log } = deps;
  let closed = false;
  /**
   * Aborted by close(): the POSTs under way end at once rather than wait out their timeout (10 s, the whole of a
   * shutdown's time), and their deliveries are released (repo.releaseDeliveries) for the next process or start.
   */
  const shutdown = new AbortController();
  // A lease outlasts the longest send, so a delivery is never sent by two passes at once.
  const leaseMs = deps.timeoutMs + 60_000;
  let lastPassAt = 0;
  /** The last pass claimed a delivery of a response older than MAX_LAG_MS. */
  let lagging = false;
  let wake: NodeJS.Timeout | undefined;
  /** Whether to leave the claim for later, and when to come back: the process is busy and a pass ran just now. */
  function yieldToCustomers(): boolean {
    const wait = lastPassAt + BUSY_PASS_GAP_MS - Date.now();
    if (wait <= 0 || lagging || !deps.isBusy()) return false;
    if (!wake && !closed) {
      wake = setTimeout(() => {
        wake = undefined;
        void loop.run();
      }, wait);
      wake.unref();
    }
    return true;
  }

  /** One attempt at the delivery and what it leads to; never throws, so one failure does not cost the pass. */
  async function attemptDelivery(
    delivery: repo.DueDelivery,
    payloads: Promise<Map<string, SubmissionForWebhook>>,
  ): Promise<(repo.RecordedAttempt & { webhookId: string }) | { interrupted: string }> {
    const started = Date.now();
    const attempt = await attemptOnce(delivery, payloads).catch((error: unknown): Attempt => ({
      statusCode: null,
      durationMs: 0,
      error: messageOf(error),
    }));
    if (attempt.statusCode === null && shutdown.signal.aborted) return { interrupted: delivery.id };
    attempt.durationMs ||= Date.now() - started;
    const succeeded = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    // The retry's time, and whether it comes too late (WEBHOOK_GIVE_UP_MS), are the database's: recordAttempts.
    const retryInMs = Math.min(deps.backoffMs * 2 ** delivery.attempts, MAX_BACKOFF_MS);
    const outcome: repo.AttemptOutcome = succeeded
      ? { status: 'succeeded' }
      : attempt.error === GONE || attempt.refusedForGood
        ? { status: 'failed' }
        : { status: 'pending', retryInMs };
    if (attempt.refusedForGood)
      log.warn(
        { deliveryId: delivery.id, webhookId: delivery.webhookId, error: attempt.error },
        'webhook delivery refused for its address; not retried',
      );
    return { deliveryId: delivery.id, webhookId: delivery.webhookId, attempt, outcome };
  }

  async function attemptOnce(
    delivery: repo.DueDelivery,
    payloads: Promise<Map<string, SubmissionForWebhook>>,
  ): Promise<Attempt> {
    const url = new URL(delivery.url);
    const refused = await refusedAttempt(url, deps);
    if (refused) return refused;
    const payload = (await payloads).get(delivery.submissionId);
    if (!payload) return { statusCode: null, durationMs: 0, error: GONE };
    const body = JSON.stringify({ event: 'response.created', deliveryId: delivery.id, ...payload });
    return sendSigned(url, delivery.secret, body, delivery.id, { ...deps, signal: shutdown.signal });
  }

  /**
   * Up to BATCH_LIMIT batches' deliveries in one statement; while customers keep the process busy, BUSY_BATCH_CHUNK
   * of them, or (when the deliveries lag) up to BATCH_LIMIT in statements that small.
   */
  async function makeDeliveries(): Promise<repo.MadeDeliveries> {
    const busy = deps.isBusy();
    const chunk = busy ? BUSY_BATCH_CHUNK : BATCH_LIMIT;
    const limit = busy && !lagging ? BUSY_BATCH_CHUNK : BATCH_LIMIT;
    let batches = 0;
    const held = new Set<string>();
    while (batches < limit && !closed) {
      const made = await repo.makeDeliveries(db, Math.min(chunk, limit - batches));
      batches += made.batches;
      for (const id of made.held) held.add(id);
      // A batch row held by a deletion stays and would be taken again by the next chunk: the pass stops there.
      if (made.batches < chunk || made.held.length > 0) break;
    }
    return { batches, held: [...held] };
  }

  async function step(): Promise<boolean> {
    if (yieldToCustomers()) return false;
    lastPassAt = Date.now();
    const made = await makeDeliveries();
    // One statement, its own transaction: on the embedded engine a transaction around it held the engine across two
    // more round trips to this thread.
    const due = await repo.claimDueDeliveries(db, CLAIM_LIMIT, leaseMs);
    // Oldest due first (first attempts, by their response's time): the first claimed says how far behind we are.
    lagging = due.some((d) => d.attempts === 0 && d.ageMs > MAX_LAG_MS);
    // The pass's payloads in one query. Should it fail, each delivery that needs one logs the error as its attempt's,
    // as a failed POST does; one refused for its address does not need it.
    const submissionIds = [...new Set(due.map((d) => d.submissionId))];
    const payloads = deps.sources.findSubmissions(db, submissionIds, FILE_URL_TTL_SECONDS);
    payloads.catch(() => undefined); // not unhandled when every delivery of the pass was refused
    const results = await Promise.all(due.map((d) => attemptDelivery(d, payloads)));
    const recorded = results.flatMap((r) => ('interrupted' in r ? [] : [r]));
    const interrupted = results.flatMap((r) => ('interrupted' in r ? [r.interrupted] : []));
    try {
      await repo.releaseDeliveries(db, interrupted);
      if (interrupted.length > 0)
        log.info(
          { deliveryIds: interrupted },
          'webhook deliveries interrupted by the shutdown; they will be sent later',
        );
      const givenUp = new Set(await repo.recordAttempts(db, recorded, WEBHOOK_GIVE_UP_MS));
      for (const r of recorded)
        if (givenUp.has(r.deliveryId))
          log.warn({ deliveryId: r.deliveryId, webhookId: r.webhookId }, 'webhook delivery given up');
    } catch (err) {
      log.error(
        { err, deliveryIds: due.map((d) => d.id) },
        'webhook attempts could not be recorded; retried after their lease',
      );
    }
    // Responses a deletion under way held: once it ends, the next pass at once makes their deliveries (or finds them
    // gone), rather than the next poll.
    if (made.held.length > 0 && !closed) await repo.waitForResponses(db, made.held);
    return (due.length === CLAIM_LIMIT || made.batches === BATCH_LIMIT || made.held.length > 0) && !closed;
  }
  const loop = createDrainLoop(step, (error) =>
    logJobFailure(log, error, 'webhook deliveries could not be claimed; will retry'),
  );

  const timer = setInterval(() => void loop.run(), deps.pollMs);
  timer.unref();

  const nudger = createNudger(loop.run, NUDGE_DELAY_MS);

  return {
    nudge() {
      if (!closed) nudger.nudge();
    },
    run: loop.run,
    async close() {
      closed = true;
      clearInterval(timer);
      clearTimeout(wake);
      nudger.cancel();
      shutdown.abort();
      await loop.stop();
    },
  };
}

const GONE = 'the response was deleted';
