import { asFileList } from '#common/kinds/file-rules.ts';
import type { SubmissionBody } from '#common/submissions.ts';
import { LOCAL_FILE } from './local-file.ts';

/**
 * The device queue (docs/decisions/025-offline-customer-page.md): submissions that could not reach the server, and
 * files picked while offline, in IndexedDB. Hand-written rather than a library: five small transactions, and the
 * same code runs in the page and in the service worker (sw.js must stay under 5 KiB gzip).
 */
export type Refusal = { status: number; code: string; message: string };

export type Queued = {
  /** The Idempotency-Key: the submission's identity from the first attempt to the server's 200. */
  key: string;
  formId: string;
  ownerId: string;
  /** The POST body; a file answer whose deleteId starts with `local:` is a blob in the `files` store. */
  body: SubmissionBody;
  state: 'queued' | 'sending' | 'sent' | 'refused';
  /**
   * While `sending`, the claim lapses at this time (ms) unless its holder renews it, so a tab closed or a worker
   * stopped mid-send does not hold it for long.
   */
  leaseUntil: number;
  /** While `sending`: which sender holds the claim (only it renews the lease). */
  holder?: string;
  submissionId?: string;
  refusal?: Refusal & { fieldId?: string };
  /**
   * Once sent or refused, when a page first showed how it ended. The entry is kept (its answers dropped when it
   * ended) until SHOWN_KEEP_MS after that, so that every page following it reads how it ended, whichever saw it
   * first; one that ended with no page open (the worker's Background Sync) waits for the next visit to show it.
   */
  shownAt?: number;
};

/**
 * How long an entry that ended stays after a page showed its outcome, for the other pages following it (a second
 * tab, one frozen in the background that wakes later): a page that found it gone would never learn how it ended.
 */
export const SHOWN_KEEP_MS = 24 * 60 * 60 * 1000;

/** The entry as it is kept once it has ended: the outcome, and the uploaded files a refused one brings back. */
export const ended = (entry: Queued): Queued => ({
  ...entry,
  body: { formStructureId: entry.body.formStructureId, fileObject: entry.body.fileObject },
});

/** A file picked while offline; `keptAt` (ms) is missing on files kept before it was recorded. */
export type LocalFile = { id: string; blob: Blob; fileName: string; keptAt?: number };

/**
 * How long a file kept on the device is spared though neither the queue nor the saved answers name it: a page
 * names it in its answers a moment after keeping it, and a tab may still hold answers naming it in memory after
 * another tab's answers (for another form) replaced the saved ones.
 */
export const UNNAMED_FILE_KEEP_MS = 24 * 60 * 60 * 1000;

const DB_NAME = 'easyform-offline';
const SUBMISSIONS = 'submissions';
const FILES = 'files';

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

let opening: Promise<IDBDatabase> | null = null;

function openDb(): Promise<IDBDatabase> {
  opening ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => {
      request.result.createObjectStore(SUBMISSIONS, { keyPath: 'key' });
      request.result.createObjectStore(FILES, { keyPath: 'id' });
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => {
      opening = null;
      reject(request.error ?? new Error('IndexedDB unavailable'));
    };
  });
  return opening;
}

/** Runs `work` in one transaction and resolves with its result once the transaction has committed. */
async function inTransaction<T>(
  names: string[],
  mode: IDBTransactionMode,
  work: (tx: IDBTransaction) => Promise<T>,
): Promise<T> {
  const tx = (await openDb()).transaction(names, mode);
  const committed = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
  });
  const result = await work(tx);
  await committed;
  return result;
}

const inStore = <T>(name: string, mode: IDBTransactionMode, work: (store: IDBObjectStore) => Promise<T>) =>
  inTransaction([name], mode, (tx) => work(tx.objectStore(name)));

export const putQueued = (entry: Queued) =>
  inStore(SUBMISSIONS, 'readwrite', (s) => done(s.put(entry)).then(() => undefined));

export const readQueued = (key: string) =>
  inStore(SUBMISSIONS, 'readonly', (s) => done<Queued | undefined>(s.get(key)));

export const allQueued = () => inStore(SUBMISSIONS, 'readonly', (s) => done<Queued[]>(s.getAll()));

/** Notes that a page showed how the entry ended (the first time only). */
export const markShown = (key: string, now = Date.now()) =>
  changeQueued(key, (e) => (e.shownAt === undefined ? { ...e, shownAt: now } : null));

/** Removes the entries whose outcome a page showed more than SHOWN_KEEP_MS ago. */
export const forgetShown = (now = Date.now()) =>
  inStore(SUBMISSIONS, 'readwrite', async (s) => {
    const old = (await done<Queued[]>(s.getAll())).filter(
      (e) => e.shownAt !== undefined && e.shownAt + SHOWN_KEEP_MS <= now,
    );
    for (const e of old) await done(s.delete(e.key));
  });

/**
 * Changes one entry inside a single read-write transaction: IndexedDB runs read-write transactions on a store one
 * at a time, across tabs and the service worker, so the read and the write cannot interleave with another's.
 * `change` returns null to leave the entry as it is; the answer is the entry as stored, or null if unchanged.
 */
export const changeQueued = (key: string, change: (entry: Queued) => Queued | null) =>
  inStore(SUBMISSIONS, 'readwrite', async (s) => {
    const entry = await done<Queued | undefined>(s.get(key));
    const next = entry ? change(entry) : null;
    if (next) await done(s.put(next));
    return next;
  });

/** A random hex id: a file kept on the device, a sender holding a claim. */
export const randomId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Takes the entry for sending: only a `queued` one, or a `sending` one whose lease has lapsed, or whose holder is
 * known to be gone (`holderGone`: the caller holds the key's Web Lock, which every sender holds while it sends, so
 * the lease is a tab that was reloaded or closed mid-send). Two callers at once (two tabs, the page and the worker)
 * get it at most once between them.
 */
export const claimQueued = (
  key: string,
  leaseMs: number,
  holder: string,
  now = Date.now(),
  holderGone = false,
) =>
  changeQueued(key, (entry) =>
    entry.state === 'queued' || (entry.state === 'sending' && (holderGone || entry.leaseUntil <= now))
      ? { ...entry, state: 'sending', leaseUntil: now + leaseMs, holder }
      : null,
  );

/** Extends the lease while its holder is still at work; null once the claim is not this holder's any more. */
export const renewClaim = (key: string, leaseMs: number, holder: string, now = Date.now()) =>
  changeQueued(key, (entry) =>
    entry.state === 'sending' && entry.holder === holder ? { ...entry, leaseUntil: now + leaseMs } : null,
  );

export const putLocalFile = (file: LocalFile) =>
  inStore(FILES, 'readwrite', (s) => done(s.put(file)).then(() => undefined));

export const readLocalFile = (id: string) =>
  inStore(FILES, 'readonly', (s) => done<LocalFile | undefined>(s.get(id)));

export const removeLocalFile = (id: string) =>
  inStore(FILES, 'readwrite', (s) => done(s.delete(id)).then(() => undefined));

/** The ids of the files kept on the device that these file answers name. */
export const localFileIds = (answers: readonly { deleteId: string }[]): string[] =>
  answers.flatMap((f) => (f.deleteId.startsWith(LOCAL_FILE) ? [f.deleteId.slice(LOCAL_FILE.length)] : []));

/**
 * Removes the files kept on the device that no entry of the queue and none of `named` (the saved answers' files)
 * names, once kept longer than UNNAMED_FILE_KEEP_MS: those a customer left behind with a refused submission, or
 * whose answers were replaced by answers to another form. One transaction over both stores, so an entry put
 * meanwhile is either read here or put after the files are gone (and finds its file missing, as a refusal).
 */
export const forgetUnnamedFiles = (named: ReadonlySet<string>, now = Date.now()) =>
  inTransaction([SUBMISSIONS, FILES], 'readwrite', async (tx) => {
    const entries = await done<Queued[]>(tx.objectStore(SUBMISSIONS).getAll());
    const kept = new Set([
      ...named,
      ...entries.flatMap((e) => localFileIds(Object.values(e.body.fileObject ?? {}).flatMap(asFileList))),
    ]);
    const files = tx.objectStore(FILES);
    const unnamed = (await done<LocalFile[]>(files.getAll())).filter(
      (f) => !kept.has(f.id) && (f.keptAt ?? 0) + UNNAMED_FILE_KEEP_MS <= now,
    );
    for (const f of unnamed) await done(files.delete(f.id));
  });
