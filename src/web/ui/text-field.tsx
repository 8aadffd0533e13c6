import { useId, type ComponentProps, type ReactNode } from 'react';
import { LabelledControl } from './labelled-control.tsx';

type Props = ComponentProps<'input'> & {
  label: string;
  error?: string;
  hint?: ReactNode;
  action?: ReactNode;
};

/** A labelled input that wires its error and hint to screen readers (aria-invalid, aria-describedby). */
export function TextField({ label, error, hint, action, id, className, ...input }: Props) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  const describedBy = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
  const control = (
    <input
      id={inputId}
      className={['input', className].filter(Boolean).join(' ')}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy}
      {...input}
    />
  );
  return (
    <LabelledControl id={inputId} label={label}>
      {action ? (
        <div className="input-with-action">
          {control}
          {action}
        </div>
      ) : (
        control
      )}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </LabelledControl>
  );
}
