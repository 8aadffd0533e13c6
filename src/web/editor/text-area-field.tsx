import { useId, type ComponentProps, type ReactNode } from 'react';

type Props = ComponentProps<'textarea'> & { label: string; error?: string; hint?: ReactNode };

/** ui/text-field.tsx for several lines: labelled, its error and hint wired to screen readers. */
export function TextAreaField({ label, error, hint, id, ...textarea }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field">
      <label className="field-label" htmlFor={inputId}>
        {label}
      </label>
      <textarea
        id={inputId}
        className="input settings-textarea"
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        {...textarea}
      />
      {error ? (
        <p className="field-error" id={`${inputId}-error`}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={`${inputId}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
