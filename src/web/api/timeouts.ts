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
