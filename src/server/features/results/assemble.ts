import { fieldsOf, formatSpecDate, type ChoiceField, type Form } from '#common/forms.ts';
import {
  percentOf,
  RESULTS_DAYS,
  type DayCount,
  type FormResults,
  type OptionCount,
  type QuestionResult,
} from '#common/results.ts';
import { gridResult } from './grid-results.ts';
import { numbersResult } from './number-results.ts';
import type { LatestTextAnswers, ResultCounters } from './repository.ts';

/** The last RESULTS_DAYS days up to `today` (YYYY-MM-DD), oldest first, with zeros where nothing was counted. */
export function fillDays(today: string, rows: readonly DayCount[]): DayCount[] {
  const counted = new Map(rows.map((r) => [r.day, r]));
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: RESULTS_DAYS }, (_, i) => {
    const day = new Date(end - (RESULTS_DAYS - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return counted.get(day) ?? { day, responses: 0, views: 0 };
  });
}

/** The form's options in its order (0 counts included), then answers to options no longer offered, most first. */
function optionCounts(
  field: ChoiceField,
  counts: ReadonlyMap<string, number>,
  answered: number,
): OptionCount[] {
  const offered = new Set(field.options.map((o) => o.value));
  const current = field.options.map((o) => ({
    value: o.value,
    count: counts.get(o.value) ?? 0,
    offered: true,
  }));
  const retired = [...counts]
    .filter(([value]) => !offered.has(value))
    .map(([value, count]) => ({ value, count, offered: false }))
    .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
  return [...current, ...retired].map((o) => ({ ...o, percent: percentOf(o.count, answered) }));
}

/** The Results view of a form from its counters and newest text answers, the questions in the form's order. */
export function assembleResults(
  form: Form,
  counters: ResultCounters,
  latest: readonly LatestTextAnswers[],
  timeZone: string,
): FormResults {
  const fieldsById = new Map<string, { name: string }>(fieldsOf(form).map((f) => [f._id, f]));
  const more = new Map(form.moreField.map((f) => [f._id, f] as const));
  const choices = new Map(
    [...form.selectField, ...form.radioField, ...form.checkField].map((f) => [f._id, f] as const),
  );
  const questions = form.fieldOrder.flatMap(({ _id, kind }): QuestionResult[] => {
    const name = fieldsById.get(_id)?.name ?? '';
    const answered = counters.answered.get(_id) ?? 0;
    const shownTo = Math.max(0, counters.responses - (counters.skipped.get(_id) ?? 0));
    const base = { fieldId: _id, name, answered, shownTo };
    const choice = choices.get(_id);
    if (kind === 'select' || kind === 'radio' || kind === 'check') {
      if (!choice) return [];
      const counts = counters.options.get(_id) ?? new Map<string, number>();
      return [{ ...base, kind, options: optionCounts(choice, counts, answered) }];
    }
    if (kind === 'file' || kind === 'consent') return [{ ...base, kind }];
    if (kind === 'statement') return [];
    if (kind === 'grid') {
      const field = more.get(_id);
      return field?.kind === 'grid'
        ? [gridResult(base, field.settings, counters.options.get(_id) ?? new Map())]
        : [];
    }
    if (kind === 'number' || kind === 'rating' || kind === 'scale') {
      const field = more.get(_id);
      return field ? [numbersResult(base, field, counters.options.get(_id) ?? new Map())] : [];
    }
    return [
      {
        ...base,
        kind,
        latest: latest.flatMap((s) =>
          s.answers
            .filter((a) => a.fieldId === _id && typeof a.value === 'string')
            .map((a) => ({
              submissionId: s.id,
              createdAt: s.createdAt.toISOString(),
              Date: formatSpecDate(s.createdAt, timeZone),
              value: String(a.value),
            })),
        ),
      },
    ];
  });
  return {
    formId: form._id,
    formTitle: form.formTitle,
    responses: counters.responses,
    views: counters.views,
    completionRate: counters.views > 0 ? counters.responsesSinceViews / counters.views : null,
    days: fillDays(counters.today, counters.days),
    questions,
  };
}
