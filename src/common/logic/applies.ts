// The one evaluator of branching forms: which pages and questions apply to a set of answers. The React page, the
// page the server draws without JavaScript and the server's check of every submit all call it
// (docs/decisions/042-pages-and-conditions.md).
import { parseGridChoice } from '../kinds/grid-kind.ts';
import { isHiddenKey } from '../kinds/link-values.ts';
import type { Condition, ConditionLeaf, LogicKind } from './conditions.ts';

/** What the evaluator needs of a question: its id, kind, whether it is required, its condition and options. */
export type LogicQuestion = {
  id: string;
  kind: LogicKind;
  required: boolean;
  condition?: Condition;
  /** A choice question's options (the logic check finds a condition on one that is gone). */
  options?: readonly string[];
  /** Its name, for messages. */
  name?: string;
  /** Its help text: with its name, where it may recall earlier answers (kinds/recall.ts). */
  help?: string;
};
/** A page: its questions in order, and the condition under which it is shown (none: always). */
export type LogicPage = { id: string; condition?: Condition; questions: readonly LogicQuestion[] };

/**
 * An answer as the customer gave it: text or a chosen option, a list of ticked options, files, or a grid's chosen
 * column by row.
 */
export type LogicAnswer =
  string | readonly string[] | readonly { deleteId: string }[] | Readonly<Record<string, string>> | undefined;
export type LogicAnswers = Readonly<Record<string, LogicAnswer>>;

export function isEmptyAnswer(answer: LogicAnswer): boolean {
  if (answer === undefined) return true;
  if (typeof answer === 'string') return answer.trim() === '';
  if (Array.isArray(answer)) return answer.length === 0;
  return !Object.values(answer).some((column) => typeof column === 'string' && column !== '');
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Whether a list of ticked options holds `value`, or a grid's answer the row's choice `value` names. */
function includes(answer: LogicAnswer, value: string): boolean {
  if (Array.isArray(answer)) return answer.some((a: unknown) => typeof a === 'string' && same(a, value));
  if (!answer || typeof answer !== 'object') return false;
  const pair = parseGridChoice(value);
  const chosen = pair ? (answer as Readonly<Record<string, string>>)[pair[0]] : undefined;
  return pair !== null && chosen !== undefined && same(chosen, pair[1]);
}

function leafHolds(leaf: ConditionLeaf, answer: LogicAnswer): boolean {
  const value = leaf.value ?? '';
  switch (leaf.op) {
    case 'answered':
      return !isEmptyAnswer(answer);
    case 'empty':
      return isEmptyAnswer(answer);
    case 'is':
      return typeof answer === 'string' && same(answer, value);
    case 'isNot':
      return !(typeof answer === 'string' && same(answer, value));
    case 'includes':
      return includes(answer, value);
    case 'excludes':
      return !includes(answer, value);
    case 'contains':
      return typeof answer === 'string' && answer.toLowerCase().includes(value.trim().toLowerCase());
    case 'atLeast':
      return compared(answer, value) >= 0;
    case 'atMost':
      return compared(answer, value) <= 0;
  }
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * An answer against the condition's value: below 0, 0 or above 0; NaN, which no comparison holds for, when they
 * cannot be compared. Two days (YYYY-MM-DD, a date question's) compare as days; else both must be numbers (a number,
 * a rating, a scale).
 */
function compared(answer: LogicAnswer, value: string): number {
  if (typeof answer !== 'string' || answer.trim() === '' || value.trim() === '') return Number.NaN;
  const [a, b] = [answer.trim(), value.trim()];
  if (DAY.test(a) || DAY.test(b))
    return DAY.test(a) && DAY.test(b) ? (a < b ? -1 : a > b ? 1 : 0) : Number.NaN;
  return Number(answer.replace(',', '.')) - Number(value.replace(',', '.'));
}

/**
 * Whether `condition` holds for `answers`. A question that did not apply counts as unanswered, whatever was sent
 * for it: pass only the answers of questions that applied (`applicable` does).
 */
export function holds(condition: Condition, answers: LogicAnswers): boolean {
  if ('all' in condition) return condition.all.every((c) => holds(c, answers));
  if ('any' in condition) return condition.any.some((c) => holds(c, answers));
  if ('not' in condition) return !holds(condition.not, answers);
  return leafHolds(condition, answers[condition.question]);
}

export type Applicable = {
  /** The pages shown, in order (the path through the form). */
  pages: string[];
  /** The questions asked, on those pages, whose own condition holds. */
  questions: Set<string>;
};

/**
 * The pages and questions that apply to `answers`, page by page: a condition sees only the answers of questions
 * that applied on earlier pages, so an answer left behind on a page the customer then skipped changes nothing.
 */
export function applicable(pages: readonly LogicPage[], answers: LogicAnswers): Applicable {
  // The link's hidden fields are known from the start: any condition may test them.
  const seen: Record<string, LogicAnswer> = Object.fromEntries(
    Object.entries(answers).filter(([key]) => isHiddenKey(key)),
  );
  const result: Applicable = { pages: [], questions: new Set() };
  for (const page of pages) {
    if (page.condition && !holds(page.condition, seen)) continue;
    result.pages.push(page.id);
    const asked = page.questions.filter((q) => !q.condition || holds(q.condition, seen));
    for (const q of asked) result.questions.add(q.id);
    for (const q of asked) seen[q.id] = answers[q.id];
  }
  return result;
}

export type Judgement = {
  applicable: Applicable;
  /** Required questions that apply and were left empty. */
  missing: string[];
  /** Questions answered that do not apply: refused, never stored. */
  notApplying: string[];
};

/** What the server holds a submit to: required only where it applies, and no answer where it does not. */
export function judgeAnswers(pages: readonly LogicPage[], answers: LogicAnswers): Judgement {
  const result = applicable(pages, answers);
  const missing: string[] = [];
  const notApplying: string[] = [];
  for (const page of pages)
    for (const q of page.questions) {
      const empty = isEmptyAnswer(answers[q.id]);
      if (result.questions.has(q.id)) {
        if (q.required && empty) missing.push(q.id);
      } else if (!empty) notApplying.push(q.id);
    }
  return { applicable: result, missing, notApplying };
}

/** The answers of the questions that apply, the rest left out: what the page sends when the customer submits. */
export function applyingAnswers<T>(pages: readonly LogicPage[], answers: Readonly<Record<string, T>>) {
  const { questions } = applicable(pages, answers as LogicAnswers);
  return Object.fromEntries(Object.entries(answers).filter(([id]) => questions.has(id))) as Record<string, T>;
}
