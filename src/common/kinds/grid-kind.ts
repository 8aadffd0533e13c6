// The choice grid (matrix): rows × columns, one column chosen per row (docs/decisions/043-question-kinds.md). Its
// answer is the one answer that is not text: the column chosen in each row, keyed by the row's text
// ({"Speed": "Good", "Price": "Fair"}), in the submit's `gridObject`, the stored response, webhooks and exports.
import { z } from 'zod';

// What a grid's answers and conditions need without zod, for the customer's page (grid-answers.ts).
export * from './grid-answers.ts';

export const GRID_ROWS_MAX = 20;
export const GRID_COLUMNS_MAX = 10;
export const GRID_LABEL_MAX = 200;

const labels = (what: string, min: number, max: number) =>
  z
    .array(
      z
        .string({ error: `Each ${what} is a text` })
        .trim()
        .min(1, `A ${what} cannot be empty`)
        .max(GRID_LABEL_MAX, `A ${what} is at most ${GRID_LABEL_MAX} characters`),
      { error: `The ${what}s are a list` },
    )
    .min(min, `Add at least ${min === 1 ? 'one' : 'two'} ${what}${min === 1 ? '' : 's'}`)
    .max(max, `A grid has at most ${max} ${what}s`)
    .refine((list) => new Set(list).size === list.length, `Each ${what} appears once`);

export const GridSettingsSchema = z.strictObject({
  rows: labels('row', 1, GRID_ROWS_MAX),
  columns: labels('column', 2, GRID_COLUMNS_MAX),
});
export type GridSettings = z.output<typeof GridSettingsSchema>;

/** What the editor's Add button starts with. */
export const GRID_STARTER: GridSettings = {
  rows: ['Row 1', 'Row 2'],
  columns: ['Poor', 'Fair', 'Good', 'Excellent'],
};

/**
 * The answer a grid accepts: rows and columns among its own. Required means every row; an optional grid may be left
 * partly or wholly empty. The rows come out in the grid's order, without blanks.
 */
export function gridAnswerSchema(settings: GridSettings, required: boolean) {
  const { rows, columns } = settings;
  const answer = z
    .record(z.string().max(GRID_LABEL_MAX), z.string().max(GRID_LABEL_MAX), {
      error: 'Choose a column in each row',
    })
    .superRefine((chosen, ctx) => {
      for (const [row, column] of Object.entries(chosen)) {
        if (!rows.includes(row))
          ctx.addIssue({ code: 'custom', message: `“${row}” is not a row of this grid` });
        else if (column !== '' && !columns.includes(column))
          ctx.addIssue({ code: 'custom', message: `Choose one of the columns for “${row}”` });
      }
      if (required) {
        const missing = rows.find((row) => !chosen[row]);
        if (missing !== undefined)
          ctx.addIssue({ code: 'custom', message: `Choose an answer for “${missing}”` });
      }
    })
    .transform((chosen) => {
      const kept = Object.fromEntries(rows.flatMap((row) => (chosen[row] ? [[row, chosen[row]]] : [])));
      return Object.keys(kept).length > 0 ? kept : undefined;
    });
  return required ? answer : answer.optional();
}
