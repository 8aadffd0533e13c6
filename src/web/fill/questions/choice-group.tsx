import type { ChoiceField } from '#common/forms.ts';
import { controlId, describedBy, errorId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionHelp, QuestionLabel } from './question-label.tsx';

type Props = {
  field: ChoiceField;
  multiple: boolean;
  value: string | string[];
  error?: string;
  onChange: (value: string | string[]) => void;
};

/** Radio buttons (one answer) or checkboxes (several), as a fieldset whose legend is the question. */
export function ChoiceGroup({ field, multiple, value, error, onChange }: Props) {
  const chosen = Array.isArray(value) ? value : value ? [value] : [];
  const toggle = (option: string, checked: boolean) => {
    if (!multiple) return onChange(option);
    // Keep the owner's option order, whatever order they were ticked in.
    const next = new Set(checked ? [...chosen, option] : chosen.filter((v) => v !== option));
    onChange(field.options.map((o) => o.value).filter((v) => next.has(v)));
  };
  return (
    <fieldset
      className="fill-card fill-group"
      id={controlId(field._id)}
      // As the server draws it: a radio group may carry aria-required, a checkbox group may not (its legend says it).
      role={multiple ? undefined : 'radiogroup'}
      aria-required={(!multiple && field.required) || undefined}
      aria-describedby={describedBy(field, !!error && errorId(field._id))}
    >
      <legend className="fill-question" dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </legend>
      <QuestionHelp field={field} />
      {multiple ? <p className="fill-group-hint">Choose all that apply</p> : null}
      <div className="fill-options">
        {field.options.map((option) => (
          <label key={option._id} className="fill-option" dir="auto">
            <input
              type={multiple ? 'checkbox' : 'radio'}
              name={field._id}
              value={option.value}
              checked={chosen.includes(option.value)}
              aria-invalid={error ? true : undefined}
              onChange={(e) => toggle(option.value, e.target.checked)}
            />
            <span>{option.value}</span>
          </label>
        ))}
      </div>
      <FieldError id={errorId(field._id)} message={error} />
    </fieldset>
  );
}
