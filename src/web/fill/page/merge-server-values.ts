// Apart from server-form-answers.ts, which the customer's small entry runs before React: this runs in the take-over
// only, so the entry loads nothing of the grid (nor what the chunk holding it brings, React among it: ADR 032).
import type { PublicForm } from '#common/forms.ts';
import { gridRowInput } from '#common/kinds/grid-answers.ts';
import type { Draft } from '../storage/fill-storage.ts';

/**
 * The answers read from the server's form merged into the draft's: a grid's rows, posted one radio group a row
 * (`<question id>.<row number>`), become its answer by row, with the rows not changed there kept from the draft.
 */
export function mergeServerValues(
  form: PublicForm,
  draft: Draft['values'],
  typed: Draft['values'],
): Draft['values'] {
  const values = { ...draft, ...typed };
  for (const field of form.moreField ?? []) {
    if (field.kind !== 'grid') continue;
    const before = draft[field._id];
    const chosen: Record<string, string> =
      before && typeof before === 'object' && !Array.isArray(before) ? { ...before } : {};
    let moved = false;
    field.settings.rows.forEach((row, r) => {
      const name = gridRowInput(field._id, r);
      const value = typed[name];
      delete values[name];
      if (typeof value === 'string') {
        chosen[row] = value;
        moved = true;
      }
    });
    if (moved) values[field._id] = chosen;
  }
  return values;
}
