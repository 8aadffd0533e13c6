/** How long to wait before each retry of a request that failed on the way (issue 13: a flaky connection). */
export const RETRY_DELAYS_MS = [400, 1200, 3000];

/** A failure worth trying again as it is: no answer at all, a timeout, too many requests, or our own fault. */
export const isTransient = (status: number) =>
  status === 0 || status === 408 || status === 429 || status >= 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` until it succeeds, fails for good (`statusOf` says not transient), or the retries run out; the
 * last error is thrown. While the browser says it is offline there is nothing to wait for: the caller queues.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  statusOf: (error: unknown) => number,
  delays: readonly number[] = RETRY_DELAYS_MS,
): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = delays[tries];
      if (delay === undefined || !isTransient(statusOf(error)) || !navigator.onLine) throw error;
      await sleep(delay);
    }
  }
}
