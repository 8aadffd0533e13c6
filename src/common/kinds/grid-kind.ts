// The choice grid (matrix): rows × columns, one column chosen per row (docs/decisions/043-question-kinds.md). Its
// answer is the one answer that is not text: the column chosen in each row, keyed by the row's text
// ({"Speed": "Good", "Price": "Fair"}), in the submit's `gridObject`, the stored response, webhooks and exports.
import { z } from 'zod';

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

/** A grid's answer: the chosen column by row. */
export type GridAnswer = Readonly<Record<string, string>>;

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

/** Whether a grid answer has any row answered. */
export const isGridAnswered = (answer: unknown): boolean =>
  typeof answer === 'object' &&
  answer !== null &&
  !Array.isArray(answer) &&
  Object.values(answer).some((v) => typeof v === 'string' && v !== '');

/**
 * A stored grid answer as lines, "Row: Column", in the grid's row order where the row is still one of `rows`, then
 * any rows since renamed or removed (the database keeps an object's keys in an order of its own).
 */
export function gridLines(answer: GridAnswer, rows: readonly string[] = []): string[] {
  const known = rows.filter((row) => answer[row]);
  const others = Object.keys(answer).filter((row) => !rows.includes(row));
  return [...known, ...others].filter((row) => answer[row]).map((row) => `${row}: ${answer[row]}`);
}

/** The name of a grid row's radio group on the page: one group per row. */
export const gridRowInput = (fieldId: string, row: number) => `${fieldId}.${row}`;

/** The names a form's grids post under, one per row: `inputs` of each grid question. */
export const gridInputsOf = (
  fields: readonly { _id: string; kind: string; settings?: unknown }[],
): string[] =>
  fields.flatMap((f) =>
    f.kind === 'grid' ? (f.settings as GridSettings).rows.map((_, r) => gridRowInput(f._id, r)) : [],
  );

/** A grid's answer from what a page posted (or a draft keeps) by input name: the chosen column by row. */
export function gridAnswerOfPosted(
  field: { _id: string; settings: GridSettings },
  values: Readonly<Record<string, readonly string[] | undefined>>,
): Record<string, string> {
  return Object.fromEntries(
    field.settings.rows.flatMap((row, r) => {
      const chosen = values[gridRowInput(field._id, r)]?.[0]?.trim();
      return chosen ? [[row, chosen]] : [];
    }),
  );
}

/**
 * A condition's value naming one row's choice: the pair as JSON text, `["Speed","Good"]`, which no row or column text
 * can make ambiguous (the Results counters key the pair the same way).
 */
export const gridChoiceValue = (row: string, column: string) => JSON.stringify([row, column]);

/** The row and column a pair's JSON text names; null for any other text. */
export function parseGridChoice(value: string): [string, string] | null {
  try {
    const pair: unknown = JSON.parse(value);
    return Array.isArray(pair) && pair.length === 2 && pair.every((p) => typeof p === 'string')
      ? [String(pair[0]), String(pair[1])]
      : null;
  } catch {
    return null;
  }
}

/** Every row's every choice, as conditions name them. */
export const gridChoiceValues = (settings: GridSettings): string[] =>
  settings.rows.flatMap((row) => settings.columns.map((column) => gridChoiceValue(row, column)));

/** A condition's value as the owner reads it: a grid's choice as "Row: Column", any other as it is. */
export function choiceText(value: string): string {
  const pair = value.startsWith('[') ? parseGridChoice(value) : null;
  return pair ? `${pair[0]}: ${pair[1]}` : value;
}
