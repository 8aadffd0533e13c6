// A choice grid's answers and conditions without its schemas (grid-kind.ts): what the customer's React page and the
// server both read, kept free of zod so that the page's take-over at the first touch loads none of it.
import type { GridSettings } from './grid-kind.ts';

/** A grid's answer: the chosen column by row. */
export type GridAnswer = Readonly<Record<string, string>>;

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
