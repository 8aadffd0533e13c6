import { LONG_TEXT_ANSWER_MAX, TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { TextField } from '#common/forms.ts';
import { controlId, errorId, hintId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionLabel } from './question-label.tsx';

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
  const describedBy = [error ? errorId(field._id) : null, isPassword ? hintId(field._id) : null]
    .filter(Boolean)
    .join(' ');
  const shared = {
    id,
    name: field._id,
    dir: 'auto',
    value,
    'aria-required': field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
  return (
    <div className="fill-card field">
      <label className="fill-question" htmlFor={id} dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </label>
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
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {isPassword ? (
        <p className="field-hint" id={hintId(field._id)}>
          Never enter a password you use elsewhere.
        </p>
      ) : null}
      <FieldError id={errorId(field._id)} message={error} />
    </div>
  );
}
