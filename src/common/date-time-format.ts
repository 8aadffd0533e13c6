// Making an Intl.DateTimeFormat is costly (it loads the zone's rules and the locale's patterns); formatting with
// one is cheap. Each kind of format is made once per time zone and kept.

const made = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/** The en-US format with `options` in `timeZone`; `options` must be a constant, as it keys the cache. */
export function dateTimeFormatIn(options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  let byZone = made.get(options);
  if (!byZone) made.set(options, (byZone = new Map()));
  let format = byZone.get(timeZone);
  if (!format) byZone.set(timeZone, (format = new Intl.DateTimeFormat('en-US', { ...options, timeZone })));
  return format;
}
