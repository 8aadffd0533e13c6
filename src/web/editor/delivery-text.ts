import { dateTimeFormatIn } from '#common/date-time-format.ts';
import type { WebhookAttempt, WebhookDelivery } from '#common/webhooks.ts';

const WHEN: Intl.DateTimeFormatOptions = {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};

/** A log time in the owner's own zone, to the second: "Nov 23, 9:58:04 PM". */
export const formatWhen = (iso: string, zone: string): string =>
  dateTimeFormatIn(WHEN, zone).format(new Date(iso));

/** How one attempt went: "HTTP 200 in 45 ms", "HTTP 500 in 12 ms", or the error when no answer came. */
export function attemptSummary(attempt: WebhookAttempt): string {
  const status =
    attempt.statusCode === null ? null : `HTTP ${attempt.statusCode} in ${attempt.durationMs} ms`;
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  if (ok || !attempt.error) return status ?? `no answer after ${attempt.durationMs} ms`;
  // The sender writes "HTTP <code>" as the error of a refusal by status: said once is enough.
  if (status && attempt.error === `HTTP ${attempt.statusCode}`) return status;
  return status ? `${status}: ${attempt.error}` : attempt.error;
}

export const STATUS_LABEL: Record<WebhookDelivery['status'], string> = {
  succeeded: 'Delivered',
  pending: 'Retrying',
  failed: 'Failed',
};
