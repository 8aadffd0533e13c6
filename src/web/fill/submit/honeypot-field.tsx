import { HONEYPOT_FIELD } from '#common/answer-limits.ts';

/**
 * A field people never see or reach (off-screen, hidden from screen readers, out of the tab order); bots that fill
 * every input fill it, and the server drops their submission (docs/decisions/009-submission-ingest.md).
 */
export function HoneypotField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="fill-honeypot" aria-hidden="true">
      <label htmlFor="fill-honeypot">Website</label>
      <input
        id="fill-honeypot"
        type="text"
        name={HONEYPOT_FIELD}
        tabIndex={-1}
        aria-hidden="true"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
