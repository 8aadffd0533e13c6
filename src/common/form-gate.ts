// The one rule for whether a form takes responses now, and what a customer is told when it does not.
import { FORM_CLOSED_MESSAGE, NOT_OPEN_YET_PREFIX } from './answer-limits.ts';
import type { FormSettings } from './form-settings.ts';
import { formatSpecDate } from './forms.ts';

export type ClosedReason = 'closed' | 'not-open-yet' | 'ended' | 'full';

/**
 * Why the form takes no response now, or null when it does. `responseCount` is left out where the count is
 * enforced elsewhere (the submission writer counts under a lock).
 */
export function closedReasonOf(
  form: { acceptingResponses: boolean; settings: FormSettings },
  now: Date,
  responseCount?: number,
): ClosedReason | null {
  const { opensAt, closesAt, responseLimit } = form.settings;
  if (!form.acceptingResponses) return 'closed';
  if (opensAt && now < new Date(opensAt)) return 'not-open-yet';
  if (closesAt && now >= new Date(closesAt)) return 'ended';
  if (responseLimit !== null && responseCount !== undefined && responseCount >= responseLimit) return 'full';
  return null;
}

/** What the customer is told: the owner's closed message when set; "not open yet" says when it opens. */
export function closedMessageOf(settings: FormSettings, reason: ClosedReason, timeZone: string): string {
  if (reason === 'not-open-yet' && settings.opensAt) {
    return `${NOT_OPEN_YET_PREFIX} It opens on ${formatSpecDate(new Date(settings.opensAt), timeZone)}.`;
  }
  return settings.closedMessage ?? FORM_CLOSED_MESSAGE;
}
