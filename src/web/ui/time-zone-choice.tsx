import { useId } from 'react';
import { LabelledControl } from './labelled-control.tsx';
import { browserTimeZone } from './owner-time-zone.ts';

/** Every zone this browser knows, for the list (a short one where Intl cannot list them). */
const zones = (): string[] =>
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [browserTimeZone()];

/**
 * The owner's time zone for every time they read or enter: the browser's unless they pick another here. The
 * choice is kept with the account, so every browser the owner signs in on shows the same clock. `zone` null: the
 * browser's.
 */
export function TimeZoneChoice({
  zone,
  onChange,
}: {
  zone: string | null;
  onChange: (zone: string | null) => void;
}) {
  const id = useId();
  const browser = browserTimeZone();
  const all = zones();
  const options = zone === null || all.includes(zone) ? all : [zone, ...all];
  return (
    <LabelledControl id={id} label="Your time zone">
      <select
        id={id}
        className="input"
        value={zone === null || zone === browser ? '' : zone}
        onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)}
      >
        <option value="">{browser} (browser)</option>
        {options
          .filter((z) => z !== browser)
          .map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
      </select>
    </LabelledControl>
  );
}
