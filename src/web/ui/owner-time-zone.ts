// The one time zone the owner reads and enters times in: theirs. The browser's zone unless they chose another.

import { dateTimeFormatIn } from '#common/date-time-format.ts';
import { isTimeZone } from '#common/zoned-time.ts';

const KEY = 'ownerTimeZone';

/** The browser's own zone. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The owner's zone: the one chosen on this browser if any (and still valid), else the browser's. */
export function ownerTimeZone(): string {
  const chosen = localStorage.getItem(KEY);
  return chosen && isTimeZone(chosen) ? chosen : browserTimeZone();
}

/** Keeps the owner's choice on this browser; null goes back to the browser's zone. */
export function chooseTimeZone(zone: string | null): void {
  if (zone === null) localStorage.removeItem(KEY);
  else if (isTimeZone(zone)) localStorage.setItem(KEY, zone);
}

const WHEN: Intl.DateTimeFormatOptions = {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
};

/** An instant as the owner reads it, e.g. "Dec 22, 2026, 3:05 PM", in their zone. */
export const formatOwnerTime = (iso: string, zone = ownerTimeZone()): string =>
  dateTimeFormatIn(WHEN, zone).format(new Date(iso));
