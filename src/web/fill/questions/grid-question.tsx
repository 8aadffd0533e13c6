import type { MoreField } from '#common/forms.ts';
import { gridRowInput, type GridAnswer } from '#common/kinds/grid-answers.ts';
import { controlId, describedBy, errorId } from './dom-ids.ts';
import { FieldError } from './field-error.tsx';
import { QuestionHelp, QuestionLabel } from './question-label.tsx';

type Props = {
  field: Extract<MoreField, { kind: 'grid' }>;
  value: GridAnswer;
  error?: string;
  onChange: (value: GridAnswer) => void;
};

/**
 * A choice grid: each row a radio group of the columns (one tab stop, arrow keys), as the server draws it without
 * JavaScript (server/pages/grid-html.ts): change both together. The answer is the chosen column by row.
 */
export function GridQuestion({ field, value, error, onChange }: Props) {
  const id = controlId(field._id);
  return (
    <fieldset
      className="fill-card fill-group fill-grid"
      id={id}
      aria-describedby={describedBy(field, !!error && errorId(field._id))}
    >
      <legend className="fill-question" dir="auto">
        <QuestionLabel name={field.name} required={field.required} />
      </legend>
      <QuestionHelp field={field} />
      <FieldError id={errorId(field._id)} message={error} />
      <div className="fill-grid-rows">
        {field.settings.rows.map((row, r) => (
          <div
            key={row}
            className="fill-grid-row"
            role="radiogroup"
            aria-labelledby={`${id}-row-${r}`}
            aria-required={field.required || undefined}
            aria-invalid={(!!error && field.required && !value[row]) || undefined}
          >
            <p className="fill-grid-row-name" id={`${id}-row-${r}`} dir="auto">
              {row}
            </p>
            <div className="fill-grid-choices">
              {field.settings.columns.map((column) => (
                <label key={column} className="fill-grid-choice">
                  <input
                    type="radio"
                    name={gridRowInput(field._id, r)}
                    value={column}
                    checked={value[row] === column}
                    onChange={() => onChange({ ...value, [row]: column })}
                  />
                  <span dir="auto">{column}</span>
                </label>
              ))}
            </div>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
