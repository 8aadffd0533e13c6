import type { Queryable } from '../../db/database.ts';
import { networkOf } from '../../http/client-address.ts';
import { sign } from '../../http/crypto.ts';
import { HttpError } from '../../http/errors.ts';
import type { RateLimitRule } from '../../runtime/config.ts';
import { unclaimedUsageOf } from './repository.ts';

/**
 * The per-address bounds on uploads need to recognise an address again, not to know it: we keep a keyed hash (HMAC
 * with a server secret) of it, never the address. An IPv6 client is counted by its /64, the block one subscriber
 * gets, or a single host would have 2^64 fresh addresses to spread its uploads over.
 */
export function clientKeyOf(ip: string, secret: string): string {
  return sign(secret, networkOf(ip)).slice(0, 22);
}

export type UnclaimedBounds = { count: RateLimitRule; bytes: RateLimitRule };

/**
 * 429 with Retry-After when this address holds more unclaimed uploads, or bytes, than it may: checked before a
 * file is read and again once its row is written (`stored`), so parallel uploads cannot slip past together.
 */
export async function assertWithinUnclaimedBounds(
  db: Queryable,
  clientKey: string,
  bounds: UnclaimedBounds,
  stored: boolean,
): Promise<void> {
  const byCount = await unclaimedUsageOf(db, clientKey, bounds.count.windowMs);
  const byBytes =
    bounds.bytes.windowMs === bounds.count.windowMs
      ? byCount
      : await unclaimedUsageOf(db, clientKey, bounds.bytes.windowMs);
  // Before the file is read, a full allowance refuses; afterwards the new file is itself counted.
  const overCount = stored ? byCount.count > bounds.count.max : byCount.count >= bounds.count.max;
  const overBytes = stored ? byBytes.bytes > bounds.bytes.max : byBytes.bytes >= bounds.bytes.max;
  if (!overCount && !overBytes) return;
  // The oldest upload in the window leaves it (claimed, swept or aged out) first.
  const [usage, window] = overCount ? [byCount, bounds.count.windowMs] : [byBytes, bounds.bytes.windowMs];
  const frees = (usage.oldest?.getTime() ?? Date.now()) + window;
  const seconds = Math.max(1, Math.ceil((frees - Date.now()) / 1000));
  throw new HttpError(
    429,
    'RATE_LIMITED',
    overCount
      ? 'Too many files uploaded from your network are waiting to be submitted; submit the form or try again later'
      : 'Too much uploaded from your network is waiting to be submitted; submit the form or try again later',
    { 'retry-after': String(seconds) },
  );
}
