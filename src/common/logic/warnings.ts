// The logic check's notes: what a form's conditions allow but an owner would not mean. The server stores such a form
// (nothing in it is broken); the editor shows each note beside the page or question it is about.
import { parseGridChoice } from '../kinds/grid-kind.ts';
import { isHiddenKey } from '../kinds/link-values.ts';
import {
  applicable,
  type LogicAnswer,
  type LogicAnswers,
  type LogicPage,
  type LogicQuestion,
} from './applies.ts';
import type { LogicProblem } from './check.ts';
import { leavesOf, type Condition } from './conditions.ts';

/**
 * How many sets of answers the check tries for one page or question. Past it, a page or question is not judged
 * (it may well apply), so the check stays quick on any form the editor can hold.
 */
export const TRIES_MAX = 4096;
/**
 * How many sets of answers the check tries for the whole form: past it, the pages and questions left are not
 * judged, so the editor checks a form of many deeply chained conditions in tens of milliseconds, not seconds.
 */
export const FORM_TRIES_MAX = 5_000;

const nameOf = (q: LogicQuestion) => (q.name ? `“${q.name}”` : `question ${q.id}`);

type Place = { page: LogicPage; index: number; question?: LogicQuestion };

/** The day `days` after `day` (YYYY-MM-DD); the text itself when it is not a day. */
function dayAfter(day: string, days: number): string {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isNaN(time) ? day : new Date(time + days * 86_400_000).toISOString().slice(0, 10);
}

/** The answers worth trying for `q`: none, and each answer that could make a test of it come out differently. */
function triesFor(q: LogicQuestion, compared: ReadonlyMap<string, readonly string[]>): LogicAnswer[] {
  const values = compared.get(q.id) ?? [];
  switch (q.kind) {
    case 'radio':
    case 'select':
      return [undefined, ...new Set([...(q.options ?? []), ...values])];
    case 'check': {
      // Every choice of the options the tests name (an `includes` and an `excludes` may meet), and any one other.
      const named = values.slice(0, 8);
      const other = q.options?.find((o) => !named.includes(o));
      const subsets: LogicAnswer[] = [];
      for (let mask = 0; mask < 1 << named.length; mask++)
        subsets.push(named.filter((_, bit) => mask & (1 << bit)));
      if (other !== undefined) subsets.push([other]);
      return subsets;
    }
    case 'text':
    case 'time':
    case 'url':
      return [undefined, ...values, values.join(' '), 'another answer'];
    case 'number':
    case 'rating':
    case 'scale':
      // Each compared number, and one on either side of it, for the comparisons.
      return [
        undefined,
        ...new Set(values.flatMap((v) => [-1, 0, 1].map((d) => String(Number(v.replace(',', '.')) + d)))),
      ];
    case 'date':
      // Each compared day, and the day on either side of it.
      return [undefined, ...new Set(values.flatMap((v) => [-1, 0, 1].map((d) => dayAfter(v, d))))];
    case 'consent':
      return [undefined, 'yes'];
    case 'file':
      return [undefined, { deleteId: 'a file' }];
    case 'grid': {
      // Each named choice, and another column in its row, so an `includes` and an `excludes` may each hold or not.
      const tries: LogicAnswer[] = [undefined];
      for (const value of values.slice(0, 8)) {
        const pair = parseGridChoice(value);
        if (!pair) continue;
        tries.push({ [pair[0]]: pair[1] });
        const other = (q.options ?? [])
          .map(parseGridChoice)
          .find((p) => p?.[0] === pair[0] && p[1] !== pair[1]);
        if (other) tries.push({ [other[0]]: other[1] });
      }
      return tries.length > 1 ? tries : [undefined, { answered: 'yes' }];
    }
    case 'statement':
      return [undefined];
  }
}

/** The questions whose answers decide whether `place` applies: those its conditions test, and theirs in turn. */
function deciding(place: Place, places: ReadonlyMap<string, Place>): LogicQuestion[] {
  const found = new Map<string, LogicQuestion>();
  const visit = (condition: Condition | undefined) => {
    for (const leaf of condition ? leavesOf(condition) : []) {
      // A hidden field decides as a text answer the link may or may not carry.
      if (isHiddenKey(leaf.question)) {
        found.set(leaf.question, { id: leaf.question, kind: 'text', required: false });
        continue;
      }
      const at = places.get(leaf.question);
      if (!at?.question || found.has(leaf.question)) continue;
      found.set(leaf.question, at.question);
      visit(at.page.condition);
      visit(at.question.condition);
    }
  };
  visit(place.page.condition);
  visit(place.question?.condition);
  return [...found.values()];
}

/** Whether some answers reach `place`; undefined when there are too many to try. */
function canApply(
  pages: readonly LogicPage[],
  place: Place,
  places: ReadonlyMap<string, Place>,
  budget: { left: number },
  compared: ReadonlyMap<string, readonly string[]>,
) {
  const questions = deciding(place, places);
  const tries = questions.map((q) => triesFor(q, compared));
  const combinations = tries.reduce((n, t) => n * t.length, 1);
  if (combinations > TRIES_MAX || combinations > budget.left) return undefined;
  budget.left -= combinations;
  // Later pages cannot change whether this one applies: each try evaluates the form only up to it.
  const upTo = pages.slice(0, place.index + 1);
  const answers: Record<string, LogicAnswer> = {};
  const search = (i: number): boolean => {
    const q = questions[i];
    if (!q) return reaches(applicable(upTo, answers as LogicAnswers), place);
    return (tries[i] ?? []).some((answer) => {
      answers[q.id] = answer;
      return search(i + 1);
    });
  };
  return search(0);
}

const reaches = (path: ReturnType<typeof applicable>, place: Place) =>
  place.question ? path.questions.has(place.question.id) : path.pages.includes(place.page.id);

/**
 * The notes on a form whose conditions are well formed (logicProblems finds none): a page or question that no
 * answers can reach, and a required question that is asked only sometimes (required only when it is shown).
 */
export function logicWarnings(pages: readonly LogicPage[]): LogicProblem[] {
  const places = new Map<string, Place>();
  pages.forEach((page, index) => {
    places.set(page.id, { page, index });
    for (const question of page.questions) places.set(question.id, { page, index, question });
  });
  const notes: LogicProblem[] = [];
  const never = new Set<string>();
  const budget = { left: FORM_TRIES_MAX };
  // The values the conditions compare each question with, gathered once for the whole form.
  const compared = new Map<string, string[]>();
  for (const { page, question } of places.values()) {
    const condition = question ? question.condition : page.condition;
    for (const leaf of condition ? leavesOf(condition) : [])
      if (leaf.value !== undefined && !compared.get(leaf.question)?.includes(leaf.value))
        compared.set(leaf.question, [...(compared.get(leaf.question) ?? []), leaf.value]);
  }
  for (const place of places.values()) {
    const own = place.question ? place.question.condition : place.page.condition;
    if (!own || canApply(pages, place, places, budget, compared) !== false) continue;
    const id = place.question?.id ?? place.page.id;
    never.add(id);
    notes.push({
      where: id,
      message: place.question
        ? `No answers can show ${nameOf(place.question)}: its condition never holds`
        : `No answers can reach page ${place.index + 1}: its condition never holds`,
    });
  }
  for (const [index, page] of pages.entries()) {
    if (never.has(page.id)) continue;
    const asked = page.questions.filter((q) => q.required && !never.has(q.id));
    const sometimes = page.condition ? asked : asked.filter((q) => q.condition);
    if (page.condition && sometimes.length > 0)
      notes.push({
        where: page.id,
        message: `Required only when page ${index + 1} is shown: ${sometimes.map(nameOf).join(', ')}`,
      });
    else
      for (const q of sometimes)
        notes.push({ where: q.id, message: `${nameOf(q)} is required only when it is shown` });
  }
  return notes;
}
