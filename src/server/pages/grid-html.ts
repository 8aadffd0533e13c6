// The choice grid as the server draws it for the page without JavaScript (docs/decisions/043-question-kinds.md): the
// markup of the React page's grid-question.tsx, so the take-over moves nothing. Each row is a radio group of its own
// (one tab stop, arrow keys), posted as `<question id>.<row number>`; the question is the fieldset around them.
import type { MoreField } from '#common/forms.ts';
import { gridRowInput } from '#common/kinds/grid-kind.ts';
import { controlId, firstOptionId } from './error-summary-html.ts';
import { escapeHtml as e } from './html.ts';
import { attrs, describedBy, errorId, errorOf, helpIdOf, helpOf, label } from './question-parts-html.ts';

type GridField = Extract<MoreField, { kind: 'grid' }>;

/** A grid question, each row's choice as sent (`chosenIn(row number)`), with its message. */
export function gridQuestionHtml(
  field: GridField,
  chosenIn: (row: number) => string,
  error: string | undefined,
): string {
  const id = field._id;
  const rows = field.settings.rows
    .map((row, r) => {
      const rowId = `${controlId(id)}-row-${r}`;
      const chosen = chosenIn(r);
      const choices = field.settings.columns
        .map(
          (column, c) =>
            `<label class="fill-grid-choice"><input${attrs({
              id: r === 0 && c === 0 ? firstOptionId(id) : undefined,
              type: 'radio',
              name: gridRowInput(id, r),
              value: column,
              checked: chosen === column,
            })}><span dir="auto">${e(column)}</span></label>`,
        )
        .join('');
      const group = attrs({
        class: 'fill-grid-row',
        role: 'radiogroup',
        'aria-labelledby': rowId,
        'aria-required': field.required ? 'true' : undefined,
        'aria-invalid': error && field.required && !chosen ? 'true' : undefined,
      });
      return `<div${group}><p class="fill-grid-row-name" id="${rowId}" dir="auto">${e(row)}</p><div class="fill-grid-choices">${choices}</div></div>`;
    })
    .join('');
  const box = attrs({
    class: 'fill-card fill-group fill-grid',
    id: controlId(id),
    'aria-describedby': describedBy(helpIdOf(field), error && errorId(id)),
  });
  return (
    `<fieldset${box}><legend class="fill-question" dir="auto">${label(field.name, field.required)}</legend>${helpOf(field)}` +
    `${errorOf(id, error)}<div class="fill-grid-rows">${rows}</div></fieldset>`
  );
}
