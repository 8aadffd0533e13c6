import type { ReactNode } from 'react';

/** A control under its label (`id` is the control's), then whatever goes with it: hint, status, error. */
export function LabelledControl({
  id,
  label,
  children,
}: {
  id: string;
  label: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
