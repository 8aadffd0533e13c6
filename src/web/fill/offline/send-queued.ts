import { IDEMPOTENCY_HEADER, NOT_ON_FORM } from '#common/answer-limits.ts';
import { asFileList } from '#common/kinds/file-rules.ts';
import type { FileAnswer } from '#common/submissions.ts';
import { submissionUrl, uploadUrl } from '../../api/customer-urls.ts';
import type { Sent } from '../../api/failure.ts';
import { readAnswer } from '../../api/read-answer.ts';
import { SUBMIT_TIMEOUT_MS, uploadDeadlineMs } from '../../api/timeouts.ts';
import { LOCAL_FILE } from './local-file.ts';
import {
  allQueued,
  changeQueued,
  claimQueued,
  readLocalFile,
  randomId,
  readQueued,
  removeLocalFile,
  renewClaim,
  ended,
  type Queued,
  type Refusal,
} from './queue-store.ts';
import { isTransient, withRetries } from './retry.ts';

/**
 * Sends queued submissions: each file still on the device through POST /api/profile, then the submission with its
 * Idempotency-Key. The page and the service worker both run this file, with fetch only (no XHR in a worker, no
 * zod: sw.js stays small).
 */
/**
 * A sender's claim on an entry lapses this long after it was taken or last renewed; the sender renews it every
 * RENEW_MS while it works, so a slow upload keeps it however long it takes, and a sender that went away (a tab
 * closed, the worker stopped) holds it for at most this long before the others take over.
 */
export const LEASE_MS = 20_000;
const RENEW_MS = 5_000;
/** Pages hear here when an entry changes, whoever changed it (another tab, the service worker). */
export const QUEUE_CHANNEL = 'easyform-queue';
/** The Background Sync tag the page registers and the worker answers. */
export const SYNC_TAG = 'easyform-send';

/** A 4xx the server gave: the submission will not go through as it is; the customer must change something. */
class Refused extends Error {
  constructor(readonly refusal: Refusal & { fieldId?: string }) {
    super(refusal.message);
  }
}

/** A request that got no answer, or one worth trying again later: the entry stays queued. */
class NotSent extends Error {
  constructor(readonly status: number) {
    super(`not sent (${status})`);
  }
}

const statusOf = (error: unknown) => (error instanceof NotSent ? error.status : -1);

/**
 * `init` for one try with its own deadline: a try that stalls is given up as not sent (status 0), and withRetries
 * sends it again (a submission with the same Idempotency-Key).
 */
const within = (init: RequestInit, ms: number): RequestInit => ({ ...init, signal: AbortSignal.timeout(ms) });

/**
 * One try. `sent`: what it sends, for the words of a 413 that is not the server's (a proxy's page); `expects`: the
 * strings our answer to it carries.
 */
async function call<Key extends string>(
  url: string,
  init: RequestInit,
  sent: Sent,
  expects: readonly Key[],
  fieldId?: string,
): Promise<Record<Key, string> & { [other: string]: unknown }> {
  const response = await fetch(url, init).catch(() => {
    throw new NotSent(0);
  });
  const answer = await readAnswer(response, sent, expects);
  if ('body' in answer) return answer.body as Record<Key, string>;
  // A 2xx that is not ours (a captive portal's page, or its `{}`): not sent, as with no connection.
  if ('unreached' in answer) throw new NotSent(0);
  const { status, code, message } = answer.failure;
  if (isTransient(status)) throw new NotSent(status);
  throw new Refused({ status, code, message, fieldId });
}

/**
 * An upload refused for its form rather than its file, as the page's copy of the form went stale while the answers
 * waited: a form deleted or closed is told in the bar, as the submit's own refusal would be (not "<question id>: Form
 * not found"); one that asks for no file any more lost the question, so it is not on the form (use-submit.ts then
 * says the form changed). Null for a refusal of the file itself.
 */
function formRefusal({ fieldId, ...refusal }: Refusal & { fieldId?: string }): Refused | null {
  if (refusal.status === 404 || refusal.status === 410) return new Refused(refusal);
  if (refusal.message.startsWith('formId: '))
    return new Refused({ ...refusal, message: NOT_ON_FORM, fieldId });
  return null;
}

/** Uploads one file kept on the device; the answer is written into the entry at once, so it is never sent twice. */
async function uploadLocal(entry: Queued, fieldId: string, answer: FileAnswer): Promise<void> {
  const id = answer.deleteId.slice(LOCAL_FILE.length);
  const local = await readLocalFile(id);
  if (!local) {
    const message = 'This file is no longer on this device; choose it again';
    throw new Refused({ status: 400, code: 'FILE_MISSING', message, fieldId });
  }
  const data = new FormData();
  data.append('file', local.blob, local.fileName);
  const init = { method: 'POST', body: data, headers: { accept: 'application/json' } };
  const url = uploadUrl(entry.formId);
  const deadline = uploadDeadlineMs(local.blob.size);
  const uploaded = await withRetries(
    () => call(url, within(init, deadline), 'file', ['file', '_id'], fieldId),
    statusOf,
  ).catch((error: unknown) => {
    throw (error instanceof Refused && formRefusal(error.refusal)) || error;
  });
  const stored: FileAnswer = {
    name: answer.name,
    value: uploaded.file,
    deleteId: uploaded._id,
    originalName: typeof uploaded.name === 'string' ? uploaded.name : local.fileName,
  };
  // In its place among the question's files, the others as they are.
  await changeQueued(entry.key, (e) => {
    const sent = e.body.fileObject?.[fieldId];
    const files = sent
      ? asFileList(sent).map((f) => (f.deleteId === answer.deleteId ? stored : f))
      : [stored];
    return { ...e, body: { ...e.body, fileObject: { ...e.body.fileObject, [fieldId]: files } } };
  });
  await removeLocalFile(id);
}

/** One call's outcome: the entry as it now is, and whether this caller held it and tried to send it. */
export type SendTry = { entry: Queued | undefined; tried: boolean };

const looked = async (key: string): Promise<SendTry> => ({ entry: await readQueued(key), tried: false });

async function attempt(key: string, locked = false): Promise<SendTry> {
  const holder = randomId();
  const claimed = await claimQueued(key, LEASE_MS, holder, Date.now(), locked);
  if (!claimed) return looked(key);
  announce(claimed.key);
  const heartbeat = setInterval(
    () => void renewClaim(key, LEASE_MS, holder).catch(() => undefined),
    RENEW_MS,
  );
  let result: Pick<Queued, 'state' | 'submissionId' | 'refusal'>;
  try {
    for (const [fieldId, sent] of Object.entries(claimed.body.fileObject ?? {})) {
      for (const answer of asFileList(sent))
        if (answer.deleteId.startsWith(LOCAL_FILE)) await uploadLocal(claimed, fieldId, answer);
    }
    const { body } = (await readQueued(key)) ?? claimed;
    const init = {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { accept: 'application/json', 'content-type': 'application/json', [IDEMPOTENCY_HEADER]: key },
    };
    const url = submissionUrl(claimed.ownerId);
    const answer = await withRetries(
      () => call(url, within(init, SUBMIT_TIMEOUT_MS), 'answers', ['_id']),
      statusOf,
    );
    result = { state: 'sent', submissionId: answer._id };
  } catch (error) {
    result = error instanceof Refused ? { state: 'refused', refusal: error.refusal } : { state: 'queued' };
  } finally {
    clearInterval(heartbeat);
  }
  const stored = await changeQueued(key, (e) => {
    const next: Queued = { ...e, ...result, leaseUntil: 0, holder: undefined };
    return next.state === 'queued' ? next : ended(next);
  });
  if (stored) announce(stored.key);
  return { entry: stored ?? undefined, tried: true };
}

/** Tells the pages following this entry (in every tab) to read it again: it changed. */
export function announce(key: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(QUEUE_CHANNEL);
  channel.postMessage(key);
  channel.close();
}

/**
 * Sends one entry unless someone else is: a Web Lock per key where the browser has them, and always the claim in
 * IndexedDB (a lease), so two tabs, or a tab and the worker, never send it at the same time; the server's
 * Idempotency-Key dedup covers a sender that died after the server stored it. Answers the entry as it now is, and
 * whether this call tried the network (false when it found another sender at it).
 */
export async function sendQueued(key: string): Promise<SendTry> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return attempt(key);
  const sent: SendTry = await locks.request(`easyform-send ${key}`, { ifAvailable: true }, (lock) =>
    // With the lock, nobody else is sending it: a lease still running is a sender that went away (a reload mid-send),
    // which would otherwise keep the customer on "Sending your response…" for up to LEASE_MS.
    lock ? attempt(key, true) : looked(key),
  );
  return sent;
}

/** Sends every queued entry; true when none is left waiting for the network. */
export async function sendAllQueued(): Promise<boolean> {
  const waiting = (await allQueued()).filter((e) => e.state === 'queued' || e.state === 'sending');
  const after = await Promise.all(waiting.map((e) => sendQueued(e.key)));
  return after.every(({ entry }) => entry?.state !== 'queued');
}
