import { LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { TextField } from '#common/forms.ts';
import { dateRangeHint } from '#common/kinds/kind-hints.ts';
import { controlId, describedBy, errorId, hintId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionHelp, QuestionLabel } from './question-label.tsx';

type Props = { field: TextField; value: string; error?: string; onChange: (value: string) => void };

const AUTOCOMPLETE: Partial<Record<TextField['type'], string>> = {
  email: 'email',
  tel: 'tel',
  password: 'off',
};

/** A text question as an input of its own type; `textarea` (Paragraph) is long text. */
export function TextQuestion({ field, value, error, onChange }: Props) {
  const id = controlId(field._id);
  const isPassword = field.type === 'password';
  // A date question's range: the picker's bounds, and said under the box.
  const range = field.type === 'date' ? dateRangeHint(field.dateRange) : '';
  const shared = {
    id,
    name: field._id,
    dir: 'auto',
    value,
    'aria-required': field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(
      field,
      !!error && errorId(field._id),
      (isPassword || range !== '') && hintId(field._id),
    ),
  };
  return (
    <div className="fill-card field">
      <label className="fill-question" htmlFor={id} dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </label>
      <QuestionHelp field={field} />
      {field.type === 'textarea' ? (
        <textarea
          {...shared}
          className="input fill-textarea"
          rows={5}
          maxLength={LONG_TEXT_ANSWER_MAX}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          {...shared}
          className="input"
          type={field.type}
          maxLength={TEXT_ANSWER_MAX}
          autoComplete={AUTOCOMPLETE[field.type]}
          min={range ? field.dateRange?.earliest : undefined}
          max={range ? field.dateRange?.latest : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {isPassword || range ? (
        <p className="field-hint" id={hintId(field._id)}>
          {isPassword ? 'Never enter a password you use elsewhere.' : range}
        </p>
      ) : null}
      <FieldError id={errorId(field._id)} message={error} />
    </div>
  );
}
