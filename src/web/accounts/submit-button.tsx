import type { ReactNode } from 'react';
import { useFormState } from 'react-hook-form';

/** The account forms' full-width submit button: disabled, and saying `busyLabel`, while its form submits. */
export function SubmitButton({ busyLabel, children }: { busyLabel: string; children: ReactNode }) {
  const { isSubmitting } = useFormState();
  return (
    <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
      {isSubmitting ? busyLabel : children}
    </button>
  );
}
