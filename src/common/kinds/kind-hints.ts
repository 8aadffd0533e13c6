// What both customer pages and the editor say and offer for a kind: a number's and a date's hints, a scale's steps,
// what a ticked consent posts. Apart from the kinds' schemas (number-kind.ts, scale-kinds.ts, simple-kinds.ts), so
// that the React page draws every kind at the first touch without loading zod.
import type { MoreField } from '../question-schemas.ts';
import type { NumberSettings } from './number-kind.ts';
import type { DateSettings } from './simple-kinds.ts';

/** What a ticked consent box posts (and is stored as). */
export const CONSENT_GIVEN = 'yes';

/** What the customer is told under the box: the bounds and whether a decimal is allowed ('' when nothing). */
export function numberHint(settings: NumberSettings): string {
  const { min, max, decimals } = settings;
  const whole = decimals ? '' : 'A whole number';
  const bounds =
    min !== undefined && max !== undefined
      ? `from ${min} to ${max}`
      : min !== undefined
        ? `${min} or more`
        : max !== undefined
          ? `${max} or less`
          : '';
  if (whole && bounds) return `${whole}, ${bounds}`;
  if (bounds) return `A number ${bounds}`;
  return whole;
}

/** What the customer is told under a date question with a range ('' without one). */
export function dateRangeHint(range: DateSettings | undefined): string {
  if (range?.earliest && range.latest) return `A day from ${range.earliest} to ${range.latest}`;
  if (range?.earliest) return `A day on or after ${range.earliest}`;
  if (range?.latest) return `A day on or before ${range.latest}`;
  return '';
}

/** The whole numbers a customer can choose from. */
export const stepsOf = (range: { from: number; to: number }): number[] =>
  Array.from({ length: range.to - range.from + 1 }, (_, i) => range.from + i);

/** The numbers a rating or a scale offers, lowest first. */
export const stepRangeOf = (field: MoreField): { from: number; to: number } | null =>
  field.kind === 'rating'
    ? { from: 1, to: field.settings.max }
    : field.kind === 'scale'
      ? { from: field.settings.from, to: field.settings.to }
      : null;
