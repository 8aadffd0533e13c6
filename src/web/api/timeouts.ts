/**
 * How long a submit may wait for its answer before it is given up and tried again with the same Idempotency-Key
 * (issue 13: a submit that times out is retried). The body is small and the server answers in milliseconds; 20 s
 * covers a slow phone network, and a stalled connection then costs the customer 20 s rather than minutes. The page
 * (api/public-forms.ts) and the device queue (fill/offline/send-queued.ts, also in sw.js) both use it.
 */
export const SUBMIT_TIMEOUT_MS = 20_000;

/**
 * How long an upload may go without a byte acknowledged, or, once the file is sent, without the server's answer,
 * before it is given up and tried again (a stall, not a slow link: a slow upload still reports progress).
 */
export const UPLOAD_STALL_MS = 20_000;

/**
 * The slowest upload still taken for a live connection: 8 KiB/s (64 kbit/s, below any mobile link that still carries
 * data). The device queue uploads a file kept offline with fetch (the service worker has no XHR), which reports no
 * progress, so there a stall can only be told by a deadline on the whole upload: this much time for the file, plus
 * UPLOAD_STALL_MS for the answer. A 1 MiB photo gets 148 s, a 10 MB file about 21 minutes.
 */
const SLOWEST_UPLOAD_BYTES_PER_S = 8 * 1024;

export const uploadDeadlineMs = (bytes: number) =>
  UPLOAD_STALL_MS + Math.ceil((bytes / SLOWEST_UPLOAD_BYTES_PER_S) * 1000);
