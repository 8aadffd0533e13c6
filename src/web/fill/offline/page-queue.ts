import { asFileList } from '#common/kinds/file-rules.ts';
import type { FileAnswer, SubmissionBody } from '#common/submissions.ts';
import { ApiError } from '../../api/client.ts';
import { isAway } from '../../api/failure.ts';
import { submitAnswers } from '../../api/public-forms.ts';
import { KEYS, readJson } from '../storage/fill-storage.ts';
import { LOCAL_FILE } from './local-file.ts';
import {
  forgetShown,
  forgetUnnamedFiles,
  localFileIds,
  markShown,
  putLocalFile,
  putQueued,
  randomId,
  readQueued,
  removeLocalFile,
  type Queued,
} from './queue-store.ts';
import { withRetries } from './retry.ts';
import { QUEUE_CHANNEL, sendQueued, SYNC_TAG, type SendTry } from './send-queued.ts';

/**
 * The page's side of the device queue, loaded only when a submission or a file has to wait for the network (or the
 * saved answers say one did), so the customer's first screen does not carry it (docs/decisions/025).
 */

/** Keeps a file that could not be uploaded on the device; the answer stands in for it until the submission is sent. */
export async function keepFileOnDevice(file: File, question: string): Promise<FileAnswer> {
  const id = randomId();
  await putLocalFile({ id, blob: file, fileName: file.name, keptAt: Date.now() });
  void tidyDevice();
  return { name: question, deleteId: `${LOCAL_FILE}${id}`, originalName: file.name };
}

export const forgetFileOnDevice = (deleteId: string) => removeLocalFile(deleteId.slice(LOCAL_FILE.length));

/** The files kept on the device that the saved answers name (read as stored: unreadable answers name none). */
function namedBySavedAnswers(): Set<string> {
  const saved = readJson(KEYS.draft);
  const files = typeof saved === 'object' && saved !== null && 'files' in saved ? saved.files : null;
  if (typeof files !== 'object' || files === null) return new Set();
  const answers = Object.values(files).filter(
    (f): f is { deleteId: string } => typeof f === 'object' && f !== null && typeof f.deleteId === 'string',
  );
  return new Set(localFileIds(answers));
}

/**
 * Forgets what the device keeps for nobody: entries whose outcome was shown long ago, then the files neither the
 * queue nor the saved answers name. Never fails the caller.
 */
export const tidyDevice = () =>
  forgetShown()
    .then(() => forgetUnnamedFiles(namedBySavedAnswers()))
    .catch(() => undefined);

/**
 * Asks the service worker's Background Sync to send it when the connection returns (the page need not be open
 * then), and sends it now if the browser thinks it is online. Without Background Sync, the `online` event in
 * `follow` or the next visit sends it.
 */
async function requestSend(key: string): Promise<SendTry | undefined> {
  // Not awaited: the page's own try must not wait on the worker (a registration that never settles would hold it).
  if (navigator.serviceWorker?.controller) void registerSync().catch(() => undefined);
  return navigator.onLine ? sendQueued(key) : undefined;
}

async function registerSync(): Promise<void> {
  const registration = await navigator.serviceWorker.ready;
  const sync = (registration as { sync?: { register: (tag: string) => Promise<void> } }).sync;
  await sync?.register(SYNC_TAG);
}

export type Outcome = {
  /** On the device; `sending` while this tab, another or the worker is sending it. */
  saved: (sending: boolean) => void;
  sent: (submissionId: string) => void;
  /** The server refused it (a file's refusal names its question); `uploaded`: the files that reached the server. */
  refused: (failure: ApiError, uploaded?: Record<string, FileAnswer[]>) => void;
  /** Our server failed every retry: the customer can try again. */
  retry: (message: string) => void;
};

/**
 * How long a page following a queued entry waits before its next try while the browser says it is online, by how
 * many of its own tries have failed since the connection last came back.
 */
const RESEND_MS = [1000, 3000, 10_000, 30_000] as const;

type Queue = { key: string; formId: string; ownerId: string; body: SubmissionBody };

const toApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError(0, 'OFFLINE', String(error));

/**
 * After a submit failed on the way: tries again with the same Idempotency-Key a few times (issue 13), and queues
 * the submission on the device when there is still no connection, or at once when a file is still on the device.
 * Resolves to the unsubscribe of what it follows.
 */
export async function retryOrQueue(queue: Queue, outcome: Outcome): Promise<() => void> {
  const files = Object.values(queue.body.fileObject ?? {}).flatMap(asFileList);
  if (!files.some((f) => f.deleteId.startsWith(LOCAL_FILE))) {
    try {
      const { _id } = await withRetries(
        () => submitAnswers(queue.ownerId, queue.body, queue.key),
        (e) => toApiError(e).status,
      );
      outcome.sent(_id);
      return () => undefined;
    } catch (error) {
      const failure = toApiError(error);
      // No answer, or the app away behind its proxy (502, 503, 504): the answers wait here and go when it is back.
      const waits = failure.status === 0 || isAway(failure.status);
      if (waits) return follow(queue.key, queue, outcome);
      if (failure.status >= 500) outcome.retry(failure.message);
      else outcome.refused(failure);
      return () => undefined;
    }
  }
  return follow(queue.key, queue, outcome);
}

/** The submission these answers were sent as, if it waits in the queue: shows it, and sends it when it can. */
export const resume = (key: string, outcome: Outcome) => follow(key, null, outcome);

async function follow(key: string, queue: Queue | null, outcome: Outcome): Promise<() => void> {
  await tidyDevice();
  const existing = await readQueued(key);
  if (!existing && !queue) return () => undefined;
  if (!existing && queue) await putQueued({ ...queue, state: 'queued', leaseUntil: 0 });
  let stopped = false;
  /** This page's own tries that found no network since the `online` event; finding another sender at it is not one. */
  let failures = 0;
  let lapse: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    stopped = true;
    clearTimeout(lapse);
    channel?.close();
    window.removeEventListener('online', online);
  };
  // Whoever tried last (this tab, another, the worker) may have found no network yet, even just after the `online`
  // event, and the others skipped it while it held the lock: so while the entry waits and the browser says it is
  // online, this page tries again, less often after each of its own failed tries; one another sender holds is looked
  // at when its lease lapses, and one given back by another sender is tried after the shortest wait.
  const later = (entry: Queued) => {
    clearTimeout(lapse);
    if (entry.state === 'queued' && !navigator.onLine) return;
    const wait =
      entry.state === 'sending'
        ? Math.max(0, entry.leaseUntil - Date.now()) + RESEND_MS[0]
        : (RESEND_MS[Math.min(failures, RESEND_MS.length - 1)] ?? RESEND_MS[0]);
    lapse = setTimeout(send, wait);
  };
  const settle = (entry: Queued | undefined) => {
    if (stopped || !entry) return;
    if (entry.state === 'queued' || entry.state === 'sending') {
      later(entry);
      return outcome.saved(entry.state === 'sending');
    }
    // It stays in the store a while (SHOWN_KEEP_MS): another page following it may not have read it yet.
    stop();
    void markShown(key).catch(() => undefined);
    if (entry.state === 'sent') return outcome.sent(entry.submissionId ?? '');
    const { status, code, message, fieldId } = entry.refusal ?? { status: 400, code: 'UNKNOWN', message: '' };
    // The files already uploaded, by question: those still on the device are not the slot's any more.
    const uploaded = Object.entries(entry.body.fileObject ?? {}).flatMap(([id, sent]) => {
      const up = asFileList(sent).filter((f) => !f.deleteId.startsWith(LOCAL_FILE));
      return up.length > 0 ? [[id, up] as const] : [];
    });
    outcome.refused(
      new ApiError(status, code, fieldId ? `${fieldId}: ${message}` : message),
      Object.fromEntries(uploaded),
    );
  };
  const report = () => void readQueued(key).then(settle, () => undefined);
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(QUEUE_CHANNEL);
  if (channel) channel.onmessage = (event) => event.data === key && report();
  const send = () =>
    void requestSend(key).then((result) => {
      if (result?.tried && result.entry?.state === 'queued') failures++;
      report();
    }, report);
  const online = () => {
    failures = 0;
    send();
  };
  window.addEventListener('online', online);
  report();
  send();
  return stop;
}
