import type { ChoiceField } from '#common/forms.ts';
import { controlId, describedBy, errorId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionHelp, QuestionLabel } from './question-label.tsx';

type Props = { field: ChoiceField; value: string; error?: string; onChange: (value: string) => void };

/** A dropdown with the 'Select an Option' placeholder (docs/product.md). */
export function SelectQuestion({ field, value, error, onChange }: Props) {
  const id = controlId(field._id);
  return (
    <div className="fill-card field">
      <label className="fill-question" htmlFor={id} dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </label>
      <QuestionHelp field={field} />
      <select
        id={id}
        name={field._id}
        className="input fill-select"
        value={value}
        aria-required={field.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(field, !!error && errorId(field._id))}
        onChange={(e) => onChange(e.target.value)}
      >
        <option value="">Select an Option</option>
        {field.options.map((option) => (
          <option key={option._id} value={option.value} dir="auto">
            {option.value}
          </option>
        ))}
      </select>
      <FieldError id={errorId(field._id)} message={error} />
    </div>
  );
}
