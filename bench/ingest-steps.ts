// Part 1's steps around each load: a quiet form to compare with, the stored counts, a settled PostgreSQL, and the
// wait for the webhook sender to deliver what the load stored.
import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import { api, createForm, submissionBody, type BenchOwner } from './owner.ts';
import type { Receiver } from './receiver.ts';

/** After each load on the form with a webhook, how long the bench waits for the sender to deliver the rest. */
const DRAIN_TIMEOUT_MS = 120_000;
const DRAIN_IDLE_MS = 15_000;

/**
 * The webhook receiver's count against the hooked form's stored submissions (all rounds so far): when the load
 * ended, and after waiting for the sender to drain (bounded by DRAIN_TIMEOUT_MS).
 */
export type WebhookDrain = {
  /** The receiver's count before this round's load on the hooked form. */
  receivedBefore: number;
  stored: number;
  receivedAtLoadEnd: number;
  received: number;
  distinct: number;
  drainSeconds: number;
};

/** A bench form with owner notifications off and no webhook, and its submission body written to `bodyFile`. */
export async function quietFormOf(url: string, owner: BenchOwner, bodyFile: string) {
  const form = await createForm(url, owner);
  await api(url, owner.token, 'PUT', `/api/formNotifications/${form._id}`, {
    notifyOwner: false,
    respondentCopy: false,
  });
  await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
  return { form, bodyFile };
}

export async function storedCounts(url: string, owner: BenchOwner): Promise<Map<string, number>> {
  const summary = await api<{ _id: string; count: number }[]>(url, owner.token, 'GET', '/api/formSummary');
  return new Map(summary.map((s) => [s._id, s.count]));
}

/**
 * Before each load on PostgreSQL: a VACUUM and a CHECKPOINT, so that every load starts from the same database state.
 * Without it, whichever load came after the webhook drain (tens of thousands of delivery rows just updated) shared
 * the machine with autovacuum, and a load that a timed checkpoint fell into paid for full-page writes.
 */
export async function settle(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench settle' });
  await client.connect();
  try {
    await client.query('vacuum');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

/** Waits (bounded) until the receiver has one delivery per stored submission of the hooked form. */
export async function drainWebhook(
  url: string,
  owner: BenchOwner,
  formId: string,
  receiver: Receiver,
): Promise<Omit<WebhookDrain, 'receivedBefore'>> {
  const receivedAtLoadEnd = receiver.received();
  const started = performance.now();
  const storedNow = async () => (await storedCounts(url, owner)).get(formId) ?? 0;
  // Requests still in flight when autocannon stopped may commit after a first count: count again after the wait.
  let stored = await storedNow();
  let received = await receiver.waitFor(stored, { timeoutMs: DRAIN_TIMEOUT_MS, idleMs: DRAIN_IDLE_MS });
  for (let again = await storedNow(); again !== stored; again = await storedNow()) {
    stored = again;
    received = await receiver.waitFor(stored, { timeoutMs: DRAIN_TIMEOUT_MS, idleMs: DRAIN_IDLE_MS });
  }
  return {
    stored,
    receivedAtLoadEnd,
    received,
    distinct: receiver.distinct(),
    drainSeconds: (performance.now() - started) / 1000,
  };
}
