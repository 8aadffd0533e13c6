import { isHardToRead } from '#common/contrast.ts';
import { backgroundOf } from '#common/form-colors.ts';
import type { PublicForm } from '#common/forms.ts';

type Props = { form: PublicForm; step?: { number: number; of: number; name: string } };

/** Title and description on the form's colour; on a colour no text reads well on, on a white card instead. */
export function FormHeading({ form, step }: Props) {
  const onCard = isHardToRead(backgroundOf(form));
  return (
    <header className={onCard ? 'fill-heading fill-heading-card' : 'fill-heading'}>
      {step ? (
        <p className="fill-step">
          Step {step.number} of {step.of} · {step.name}
        </p>
      ) : null}
      <h1 dir="auto">{form.formTitle}</h1>
      {form.description ? (
        <p className="fill-description" dir="auto">
          {form.description}
        </p>
      ) : null}
    </header>
  );
}
