import { TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { MoreField } from '#common/forms.ts';
import { CONSENT_GIVEN, numberHint, stepsOf } from '#common/kinds/kind-hints.ts';
import { stepRangeOf } from '#common/kinds/kind-hints.ts';
import { controlId, describedBy, errorId, hintId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionHelp, QuestionLabel } from './question-label.tsx';
import { StatementParagraphs } from './statement-paragraphs.tsx';

type Props = { field: MoreField; value: string; error?: string; onChange: (value: string) => void };

/**
 * A question of a kind beyond the product's five, as the server draws it without JavaScript
 * (server/pages/more-kinds-html.ts): change both together.
 */
export function MoreQuestion(props: Props) {
  switch (props.field.kind) {
    case 'number':
    case 'time':
    case 'url':
      return <BoxQuestion {...props} />;
    case 'rating':
    case 'scale':
      return <StepsQuestion {...props} />;
    case 'consent':
      return <ConsentQuestion {...props} />;
    case 'statement':
      return (
        <section className="fill-card fill-statement" aria-labelledby={controlId(props.field._id)}>
          <h2 className="fill-question" id={controlId(props.field._id)} dir="auto">
            {props.field.name}
          </h2>
          <QuestionHelp field={props.field} />
          <StatementParagraphs text={props.field.settings.text} />
        </section>
      );
  }
}

/** A number (with its unit and bounds said under it), a time or a web address: one box. */
function BoxQuestion({ field, value, error, onChange }: Props) {
  const id = controlId(field._id);
  const hint = field.kind === 'number' ? numberHint(field.settings) : '';
  const unit = field.kind === 'number' ? field.settings.unit : undefined;
  const input = (
    <input
      id={id}
      name={field._id}
      className="input"
      dir={field.kind === 'url' ? 'auto' : undefined}
      type={field.kind === 'time' ? 'time' : field.kind === 'url' ? 'url' : 'text'}
      inputMode={field.kind === 'number' ? (field.settings.decimals ? 'decimal' : 'numeric') : undefined}
      autoComplete={field.kind === 'url' ? 'url' : undefined}
      maxLength={field.kind === 'time' ? undefined : TEXT_ANSWER_MAX}
      value={value}
      aria-required={field.required || undefined}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(
        field,
        !!unit && `${id}-unit`,
        !!hint && hintId(field._id),
        !!error && errorId(field._id),
      )}
      onChange={(e) => onChange(e.target.value)}
    />
  );
  return (
    <div className="fill-card field">
      <label className="fill-question" htmlFor={id} dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </label>
      <QuestionHelp field={field} />
      {hint ? (
        <p className="field-hint" id={hintId(field._id)}>
          {hint}
        </p>
      ) : null}
      {unit ? (
        <div className="fill-unit-box">
          {input}
          <span className="fill-unit" id={`${id}-unit`} dir="auto">
            {unit}
          </span>
        </div>
      ) : (
        input
      )}
      <FieldError id={errorId(field._id)} message={error} />
    </div>
  );
}

/** A rating or a scale: a radio group of its numbers (one tab stop, arrow keys), stars for a star rating. */
function StepsQuestion({ field, value, error, onChange }: Props) {
  const id = controlId(field._id);
  const range = stepRangeOf(field) ?? { from: 1, to: 5 };
  const stars = field.kind === 'rating' && field.settings.style === 'stars';
  const ends =
    field.kind === 'scale' && (field.settings.fromLabel || field.settings.toLabel) ? field.settings : null;
  return (
    <fieldset
      className="fill-card fill-group"
      id={id}
      role="radiogroup"
      aria-labelledby={`${id}-legend`}
      aria-required={field.required || undefined}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(field, !!ends && `${id}-ends`, !!error && errorId(field._id))}
    >
      <legend className="fill-question" id={`${id}-legend`} dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </legend>
      <QuestionHelp field={field} />
      <div className={stars ? 'fill-steps fill-stars' : 'fill-steps'}>
        {stepsOf(range).map((step) => (
          <label key={step} className="fill-step">
            <input
              type="radio"
              name={field._id}
              value={String(step)}
              checked={value === String(step)}
              onChange={() => onChange(String(step))}
            />
            {stars ? (
              <>
                <span aria-hidden="true">★</span>
                <span className="visually-hidden">
                  {step} of {range.to}
                </span>
              </>
            ) : (
              <span>{step}</span>
            )}
          </label>
        ))}
      </div>
      {ends ? (
        <p className="fill-scale-ends" id={`${id}-ends`}>
          <span dir="auto">{ends.fromLabel}</span> <span dir="auto">{ends.toLabel}</span>
        </p>
      ) : null}
      <FieldError id={errorId(field._id)} message={error} />
    </fieldset>
  );
}

/** One checkbox the customer ticks to agree; its text may hold links. */
function ConsentQuestion({ field, value, error, onChange }: Props) {
  return (
    <fieldset
      className="fill-card fill-group"
      id={controlId(field._id)}
      aria-describedby={describedBy(field, !!error && errorId(field._id))}
    >
      <legend className="fill-question" dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </legend>
      <QuestionHelp field={field} />
      <div className="fill-options">
        <label className="fill-option" dir="auto">
          <input
            type="checkbox"
            name={field._id}
            value={CONSENT_GIVEN}
            checked={value === CONSENT_GIVEN}
            aria-required={field.required || undefined}
            aria-invalid={error ? true : undefined}
            onChange={(e) => onChange(e.target.checked ? CONSENT_GIVEN : '')}
          />
          <span>
            {field.kind === 'consent' ? <StatementParagraphs text={field.settings.text} inline /> : null}
          </span>
        </label>
      </div>
      <FieldError id={errorId(field._id)} message={error} />
    </fieldset>
  );
}
