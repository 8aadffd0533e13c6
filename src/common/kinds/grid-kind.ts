// The choice grid (matrix): rows × columns, one column chosen per row (docs/decisions/043-question-kinds.md).
import { z } from 'zod';
import { OptionValueSchema } from '../forms.ts';

export const GRID_ROWS_MAX = 20;
export const GRID_COLUMNS_MAX = 10;

const distinct = (list: { value: string }[]) => new Set(list.map((o) => o.value)).size === list.length;

export const GridSettingsSchema = z.strictObject({
  rows: z
    .array(z.strictObject({ value: OptionValueSchema }))
    .min(1, 'Add at least one row')
    .max(GRID_ROWS_MAX, `A grid has at most ${GRID_ROWS_MAX} rows`)
    .refine(distinct, 'Each row appears once'),
  columns: z
    .array(z.strictObject({ value: OptionValueSchema }))
    .min(2, 'Add at least two columns')
    .max(GRID_COLUMNS_MAX, `A grid has at most ${GRID_COLUMNS_MAX} columns`)
    .refine(distinct, 'Each column appears once'),
});
export type GridSettings = z.output<typeof GridSettingsSchema>;

/**
 * The answer: the column chosen in each row, by their texts. Required means every row; an optional grid may be left
 * partly or wholly empty.
 */
export function gridAnswerSchema(settings: GridSettings, required: boolean) {
  const rows = settings.rows.map((r) => r.value);
  const columns = settings.columns.map((c) => c.value);
  const answer = z.record(z.string().max(500), z.string().max(500)).superRefine((chosen, ctx) => {
    for (const [row, column] of Object.entries(chosen)) {
      if (!rows.includes(row))
        ctx.addIssue({ code: 'custom', message: `“${row}” is not a row of this question` });
      else if (!columns.includes(column))
        ctx.addIssue({ code: 'custom', message: `Choose one of the columns for “${row}”` });
    }
    if (required) {
      const missing = rows.filter((row) => !(row in chosen));
      if (missing.length > 0)
        ctx.addIssue({ code: 'custom', message: `Choose an answer for “${missing[0]}”` });
    }
  });
  return required ? answer : answer.optional();
}
