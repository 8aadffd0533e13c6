// One signed POST to a receiver, as every webhook request is made: the address rules (unless private receivers are
// allowed), the signature header, the timeout, no redirects. The sender's deliveries and Send test both use it.
import { webhookSignature } from '../../http/crypto.ts';
import { publicOnlyLookup, refusalOf } from './address.ts';
import { postJson } from './post.ts';

export const SIGNATURE_HEADER = 'Easyform-Signature';
/** Errors are logged in the attempt up to this length. */
const MAX_ERROR_LENGTH = 500;

export type Attempt = {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Refused for the receiver's address: no later try can succeed, so none is made. */
  refusedForGood?: boolean;
};

export type SendOptions = {
  allowPrivate: boolean;
  timeoutMs: number;
  /** Ends the POST at once when aborted (the sender's shutdown). */
  signal?: AbortSignal | undefined;
};

/** Refuses the URL's address when private receivers are not allowed; the reason as an attempt's error, or null. */
export async function refusedAttempt(url: URL, options: SendOptions): Promise<Attempt | null> {
  if (options.allowPrivate) return null;
  const refusal = await refusalOf(url);
  if (!refusal) return null;
  return {
    statusCode: null,
    durationMs: 0,
    error: `refused: ${refusal.reason}`,
    refusedForGood: refusal.permanent,
  };
}

/**
 * POSTs `body` signed with `secret` and reports the attempt; never throws. The caller checks `refusedAttempt` first
 * (the sender does so before it sends a delivery's payload); the connection's own lookup checks the address again.
 */
export async function sendSigned(
  url: URL,
  secret: string,
  body: string,
  deliveryId: string,
  options: SendOptions,
): Promise<Attempt> {
  const timestamp = Math.floor(Date.now() / 1000);
  const started = Date.now();
  try {
    const status = await postJson(
      url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'EasyForm-Webhooks/1',
        'easyform-delivery': deliveryId,
        [SIGNATURE_HEADER]: `t=${timestamp},v1=${webhookSignature(secret, timestamp, body)}`,
      },
      {
        timeoutMs: options.timeoutMs,
        lookup: options.allowPrivate ? undefined : publicOnlyLookup,
        signal: options.signal,
      },
    );
    const durationMs = Date.now() - started;
    if (status >= 300 && status < 400)
      return { statusCode: status, durationMs, error: 'redirects are not followed' };
    const ok = status >= 200 && status < 300;
    return { statusCode: status, durationMs, error: ok ? null : `HTTP ${status}` };
  } catch (error) {
    return { statusCode: null, durationMs: Date.now() - started, error: messageOf(error) };
  }
}

export function messageOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const text = error instanceof Error ? `${error.name}: ${error.message}${cause}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}
