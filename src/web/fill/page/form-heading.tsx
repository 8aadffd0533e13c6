import { useEffect, useRef, type ReactNode } from 'react';
import { isHardToRead } from '#common/contrast.ts';
import { backgroundOf } from '#common/form-colors.ts';
import type { PublicForm } from '#common/forms.ts';
import { LinkedText } from '../../ui/linked-text.tsx';

type Props = {
  form: Pick<PublicForm, 'formTitle' | 'description' | 'color'>;
  /** Where the customer is: "Step 1 of 2 · Your answers", or a paged form's "Page 2 of 3" (`unit`, no name). */
  step?: { number: number; of: number; name?: string; unit?: 'Step' | 'Page' };
  /** Takes the focus when drawn: a step reached from another (Next to the files), so focus is not left on the body. */
  focus?: boolean;
  /** Under the form's title, on the same colours: a paged form's page title. */
  children?: ReactNode;
};

/**
 * Title and description on the form's colour; on a colour no text reads well on, on a white card instead. A later
 * step names the form in a line or two and leaves the description to step 1, so a phone shows its questions first.
 */
export function FormHeading({ form, step, focus = false, children }: Props) {
  const later = step && step.number > 1;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) heading.current?.focus({ preventScroll: true });
  }, [focus]);
  return (
    <header
      className={`fill-heading${isHardToRead(backgroundOf(form)) ? ' fill-heading-card' : ''}${later ? ' fill-later' : ''}`}
    >
      {step ? (
        <p className="fill-step">
          {step.unit ?? 'Step'} {step.number} of {step.of}
          {step.name ? ` · ${step.name}` : null}
        </p>
      ) : null}
      <h1 dir="auto" ref={heading} tabIndex={focus ? -1 : undefined}>
        {form.formTitle}
      </h1>
      {form.description && !later ? (
        <p className="fill-description" dir="auto">
          <LinkedText text={form.description} />
        </p>
      ) : null}
      {children}
    </header>
  );
}
