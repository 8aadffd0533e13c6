import type { Failure, Sent } from './failure.ts';

/**
 * How an answer reads, for the page's client (client.ts, profile.ts) and the device queue (offline/send-queued.ts)
 * alike. Not every answer is ours: a reverse proxy's HTML page or a captive portal's 200 sign-in page get plain
 * words (failure-words.ts) instead of "Request failed (413)" or a false success. No zod, no React: the service
 * worker runs this too.
 */

const NOT_JSON = Symbol('not JSON');

/** Whether `body` has a non-empty string at each of `keys` (any JSON does, for none). */
const carries = (body: unknown, keys: readonly string[]) =>
  keys.every((key) => {
    const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : null;
    return typeof value === 'string' && value !== '';
  });

/**
 * The JSON of a 2xx (undefined for a 204), or the failure. A 2xx that is not JSON did not come from us (a captive
 * portal's sign-in page, a proxy's own page): `unreached`, as with no connection. So is JSON without the strings
 * our answer always `carries` (a portal's `{}` where a submission's `_id` should be): taken as ours, the customer
 * would be thanked for answers that never got in.
 */
export async function readAnswer(
  response: Response,
  sent?: Sent,
  expects: readonly string[] = [],
): Promise<{ body: unknown } | { unreached: true } | { failure: Failure }> {
  if (response.status === 204) return { body: undefined };
  const body: unknown = await response.json().catch(() => NOT_JSON);
  if (response.ok) return body !== NOT_JSON && carries(body, expects) ? { body } : { unreached: true };
  const { failureOf } = await import('./failure-words.ts');
  return { failure: failureOf(response.status, body === NOT_JSON ? null : body, sent) };
}
