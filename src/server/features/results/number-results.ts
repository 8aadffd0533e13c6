// Results of a number, a rating and a scale, from how many responses gave each number (form_option_counts): the
// same counters whatever the number of responses.
import type { MoreField } from '#common/forms.ts';
import { stepRangeOf, stepsOf } from '#common/kinds/kind-hints.ts';
import { summariseNumbers } from '#common/kinds/number-summary.ts';
import { npsOf } from '#common/kinds/scale-kinds.ts';
import { percentOf, type NumberResult, type StepResult } from '#common/results.ts';

type Base = { fieldId: string; name: string; answered: number; shownTo: number };

export function numbersResult(
  base: Base,
  field: MoreField,
  counts: ReadonlyMap<string, number>,
): NumberResult | StepResult {
  const byNumber = new Map<number, number>();
  for (const [text, n] of counts) {
    const value = Number(text);
    if (text.trim() !== '' && Number.isFinite(value)) byNumber.set(value, (byNumber.get(value) ?? 0) + n);
  }
  const range = stepRangeOf(field);
  if (!range || (field.kind !== 'rating' && field.kind !== 'scale'))
    return { ...base, kind: 'number', summary: summariseNumbers(byNumber) };
  let total = 0;
  let sum = 0;
  for (const [value, n] of byNumber) {
    total += n;
    sum += value * n;
  }
  return {
    ...base,
    kind: field.kind,
    steps: stepsOf(range).map((value) => {
      const count = byNumber.get(value) ?? 0;
      return { value, count, percent: percentOf(count, base.answered) };
    }),
    mean: total > 0 ? sum / total : null,
    nps: field.kind === 'scale' && field.settings.nps ? npsOf(Object.fromEntries(byNumber)) : null,
  };
}
