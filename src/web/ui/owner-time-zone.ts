// The one time zone the owner reads and enters times in: theirs. It is kept with the account (the server holds
// it); this browser keeps a copy so the first screen already shows it, and the browser's own zone stands in until
// the owner picks one.

import { useSyncExternalStore } from 'react';
import { dateTimeFormatIn } from '#common/date-time-format.ts';
import { formatSpecDate } from '#common/forms.ts';
import { isTimeZone } from '#common/zoned-time.ts';

const KEY = 'ownerTimeZone';
const listeners = new Set<() => void>();

/** The browser's own zone. */
export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The account's zone as last known on this browser; null when the account has none (the browser's then). */
export function accountTimeZone(): string | null {
  const kept = typeof localStorage === 'undefined' ? null : localStorage.getItem(KEY);
  return kept && isTimeZone(kept) ? kept : null;
}

/** The owner's zone: the account's if it has one, else the browser's. */
export const ownerTimeZone = (): string => accountTimeZone() ?? browserTimeZone();

/** Keeps the account's zone (as the server has it) on this browser; every screen showing times redraws. */
export function keepAccountTimeZone(zone: string | null): void {
  if (zone === accountTimeZone()) return;
  if (zone !== null && isTimeZone(zone)) localStorage.setItem(KEY, zone);
  else localStorage.removeItem(KEY);
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The owner's zone, redrawing the component when it changes. */
export const useOwnerTimeZone = (): string => useSyncExternalStore(subscribe, ownerTimeZone, ownerTimeZone);

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

/** An instant as the Date and Time columns show it ("12/22/2026", "3:05:00 PM") in `zone`; "No" for none. */
export function ownerDateAndTime(
  iso: string | null | undefined,
  zone: string,
): { date: string; time: string } {
  if (!iso) return { date: 'No', time: 'No' };
  const [date = '', time = ''] = formatSpecDate(new Date(iso), zone)
    .split(',')
    .map((part) => part.trim());
  return { date, time };
}

const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' };
const dayFormat = new Intl.DateTimeFormat('en-GB', DAY);

/** A date question's answer (YYYY-MM-DD) as a person writes it, "22 Dec 2026"; anything else as it is. */
export function formatAnswerDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return Number.isNaN(day.getTime()) ? value : dayFormat.format(day);
}
