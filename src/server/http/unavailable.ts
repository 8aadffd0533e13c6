/**
 * A failure that is not the request's nor a bug of ours but a service the app depends on being away for a while:
 * PostgreSQL restarting or unreachable, the S3 endpoint down or answering 5xx, the disk full or read-only. The
 * request is answered 503 with Retry-After (the customer page keeps the response and sends it again), and the log
 * names what failed in one line, without a stack.
 */
export type Unavailable = { service: 'database' | 'file storage' | 'disk'; reason: string };

/** Thrown where the failure is known to be a service's being away, with the words for it. */
export class UnavailableError extends Error {
  constructor(readonly unavailable: Unavailable) {
    super(`${unavailable.service} unavailable: ${unavailable.reason}`);
  }
}

/** How long a client is told to wait before trying again. */
export const UNAVAILABLE_RETRY_SECONDS = 30;

/** Socket-level failures: the peer is gone, refuses, or cannot be found. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** A full or read-only disk under DATA_DIR (the embedded database's or the uploads' folder). */
const DISK_CODES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EIO: 'the disk reported an I/O error',
};

/**
 * SQLSTATEs of a database that cannot serve now: class 08 (connection exception), 57P01–57P03 (shutting down,
 * crashed, starting up), 53xxx (out of connections, disk full, memory), 58030 (I/O error).
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[1-3]|53...|58030)$/;

/** pg's own words for a connection that went away or could not be had in time (they carry no code). */
const PG_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|Query read timeout)/;

/** What of the app's services is away, or null when `error` is anything else (a bug: the 500 with its stack). */
export function unavailableOf(error: unknown): Unavailable | null {
  if (!error || typeof error !== 'object') return null;
  if (error instanceof UnavailableError) return error.unavailable;
  const e = error as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' ? e.code : undefined;
  // The AWS SDK's errors carry $metadata: an S3 endpoint answering 5xx, or not answering at all.
  if (e.$metadata !== undefined) {
    const status = e.$metadata.httpStatusCode;
    const cause = (e.cause as { code?: unknown } | undefined)?.code;
    if (status !== undefined && status >= 500)
      return { service: 'file storage', reason: `S3 answered HTTP ${status} (${String(e.name)})` };
    if (
      status === undefined &&
      (e.name === 'TimeoutError' ||
        (code && NETWORK_CODES.has(code)) ||
        (typeof cause === 'string' && NETWORK_CODES.has(cause)))
    )
      return { service: 'file storage', reason: `S3 cannot be reached: ${message || String(e.name)}` };
    return null;
  }
  if (code && code in DISK_CODES) {
    const path =
      typeof (e as { path?: unknown }).path === 'string' ? ` (${(e as { path: string }).path})` : '';
    return { service: 'disk', reason: `${DISK_CODES[code]}${path}: ${code}` };
  }
  if (code && UNAVAILABLE_SQLSTATE.test(code)) return { service: 'database', reason: `${message} (${code})` };
  // A socket's own failure (connect, read, write, lookup): outside a storage call, only the database's connections
  // are made while a request is answered. A client that hung up has no syscall in its error.
  if (code && NETWORK_CODES.has(code) && typeof (e as { syscall?: unknown }).syscall === 'string')
    return { service: 'database', reason: message };
  if (PG_CONNECTION_MESSAGE.test(message)) return { service: 'database', reason: message };
  return null;
}

/**
 * A background job's failure (the outbox, notifications, webhooks, the sweeps), which its next pass retries: one
 * warning line naming the service while one is away, as a request's 503 is logged, instead of an error with its
 * stack every poll for as long as the database is down; anything else is logged as the error it is.
 */
export function logJobFailure(
  log: { warn(o: object, msg: string): void; error(o: object, msg: string): void },
  error: unknown,
  message: string,
): void {
  const away = unavailableOf(error);
  if (away)
    log.warn(
      { service: away.service, reason: away.reason },
      `${message}: ${away.service} unavailable (${away.reason})`,
    );
  else log.error({ err: error }, message);
}
