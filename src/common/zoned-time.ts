// Wall-clock times in a named zone (the form's) for a datetime-local input, and back to instants, with Intl only.

import { dateTimeFormatIn } from './date-time-format.ts';

/** Every part as a number, hours 0 to 23. */
const PARTS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
};

function partsIn(date: Date, timeZone: string): Record<string, number> {
  const format = dateTimeFormatIn(PARTS, timeZone);
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(date)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts;
}

/** How far the zone's wall clock is ahead of UTC at this instant, in milliseconds. */
function offsetAt(date: Date, timeZone: string): number {
  const p = partsIn(date, timeZone);
  const wall = Date.UTC(p.year ?? 0, (p.month ?? 1) - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(date.getTime() / 1000) * 1000;
}

const pad = (n: number | undefined, width = 2) => String(n ?? 0).padStart(width, '0');

/** An instant as `YYYY-MM-DDTHH:mm` on the zone's wall clock: a datetime-local input's value. */
export function toZonedInput(iso: string, timeZone: string): string {
  const p = partsIn(new Date(iso), timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** A datetime-local value read on the zone's wall clock, as an ISO instant; null when it is not one. */
export function fromZonedInput(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number);
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s || 0);
  // Two passes settle a wall time near a daylight-saving change on the offset in force at the result.
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess).toISOString();
}

/** Longest zone name accepted (the longest IANA names are about 30 characters). */
export const TIME_ZONE_MAX = 64;

// An IANA name is one or more parts joined by "/", the first starting with a capital letter ("America/New_York",
// "UTC", "Etc/GMT+5"). Intl also takes offsets ("+05:30") and any letter case; those are not names, so not here.
const IANA_NAME = /^[A-Z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
// Names written in capitals are short ("UTC", "PRC", "EST5EDT"): a longer word in capitals is a name shouted.
const SHOUTED = /(?:^|[/_-])[A-Z]{5,}(?:$|[/_-])/;

let listed: Map<string, string> | undefined;
/** The zones Intl lists, by their name in lower case (aliases such as Asia/Kolkata may be missing). */
function listedZones(): Map<string, string> {
  listed ??= new Map(
    (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []).map((z) => [
      z.toLowerCase(),
      z,
    ]),
  );
  return listed;
}

/** Whether `zone` is an IANA time zone name (such as Europe/Berlin), written as IANA writes it, that Intl knows. */
export function isTimeZone(zone: string): boolean {
  if (zone.length > TIME_ZONE_MAX || !IANA_NAME.test(zone)) return false;
  const known = listedZones().get(zone.toLowerCase());
  if (known ? known !== zone : SHOUTED.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
