// A start-up that meets PostgreSQL or the S3 endpoint not there yet (the machine booting, the database restarting)
// waits for it, trying again, for STARTUP_WAIT_SECONDS in all; a service manager's restart limit would otherwise give
// up for good within seconds (docs/decisions/039-boot-and-health.md). What no wait can mend is refused at once.
import { unavailableOf } from '../http/unavailable.ts';
import { StartupError } from './config.ts';

/** The first wait between two tries; each next one doubles, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 5_000;

export type StartWait = {
  /** When the start gives up, in ms since the epoch. */
  deadline: number;
  waitMs: number;
  log: { warn(details: object, message: string): void };
};

/** One wait shared by every dependency of the start: STARTUP_WAIT_SECONDS bounds the whole start, not each. */
export function startWait(waitMs: number, log: StartWait['log']): StartWait {
  return { deadline: Date.now() + waitMs, waitMs, log };
}

/**
 * Whether a start-up failure is a service not (yet) answering, which a wait may mend: nothing listening, a name not
 * resolving yet, a timeout, PostgreSQL starting up or out of connections, S3 answering 5xx. A wrong password, a
 * database or bucket that does not exist, refused access or a wrong region are not.
 */
function mendable(error: unknown): boolean {
  if (!(error instanceof StartupError)) return false;
  const cause = error.cause as { name?: unknown } | undefined;
  return unavailableOf(cause) !== null || cause?.name === 'TimeoutError' || cause?.name === 'AbortError';
}

/**
 * `open()`, tried again with a growing wait while it fails with a mendable StartupError and the start's wait lasts.
 * Each failed try is one log line naming the service, why, and when the next try is; a failure past the deadline is
 * thrown as the StartupError it is, saying how long the start waited.
 */
export async function waitFor<T>(
  service: 'database' | 'file storage',
  open: () => Promise<T>,
  wait: StartWait,
): Promise<T> {
  const started = Date.now();
  for (
    let tries = 1, backoff = FIRST_BACKOFF_MS;
    ;
    tries++, backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)
  ) {
    try {
      return await open();
    } catch (error) {
      if (!mendable(error)) throw error;
      const message = (error as StartupError).message;
      const now = Date.now();
      if (now + backoff > wait.deadline) {
        if (wait.waitMs === 0) throw error;
        throw new StartupError(
          `${message} (still after ${Math.round((now - started) / 1000)} s of trying: STARTUP_WAIT_SECONDS)`,
          { cause: error },
        );
      }
      const nextTryAt = new Date(now + backoff).toISOString();
      wait.log.warn(
        { service, reason: message, tries, nextTryAt, waitedMs: now - started },
        `${service} unreachable at start-up: ${message}; trying again at ${nextTryAt} (in ${backoff / 1000} s)`,
      );
      await new Promise((resolve) => setTimeout(resolve, backoff));
    }
  }
}
