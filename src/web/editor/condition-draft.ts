// The condition builder's working copy: a list of rules joined by "all" or "any", each an earlier question, a test
// and, for the tests that compare, a value. A condition the builder cannot show this way (groups inside groups, a
// `not`) is left as it is unless the owner replaces it.
import { choiceText, gridChoiceValues } from '#common/kinds/grid-kind.ts';
import { isRealDate } from '#common/kinds/simple-kinds.ts';
import {
  OPERATORS_BY_KIND,
  VALUE_OPERATORS,
  type Condition,
  type ConditionLeaf,
  type ConditionOperator,
} from '#common/logic/conditions.ts';
import { logicKindOf } from '#common/logic/items.ts';
import { isPageBreak, pagesOfItems, type EditorItem } from './editor-items.ts';
import type { EditorField } from './fields-in-order.ts';

export type DraftRule = { question: string; op: ConditionOperator | ''; value: string };
export type ConditionDraft = { join: 'all' | 'any'; rules: DraftRule[] };

const isLeaf = (c: Condition): c is ConditionLeaf => 'question' in c;
const ruleOf = (leaf: ConditionLeaf): DraftRule => ({
  question: leaf.question,
  op: leaf.op,
  value: leaf.value ?? '',
});

/** The draft of `condition`, a blank one for none, or null when the builder cannot show it. */
export function draftOf(condition: Condition | undefined): ConditionDraft | null {
  if (!condition) return { join: 'all', rules: [blankRule] };
  if (isLeaf(condition)) return { join: 'all', rules: [ruleOf(condition)] };
  const [join, parts] =
    'all' in condition
      ? (['all', condition.all] as const)
      : 'any' in condition
        ? (['any', condition.any] as const)
        : [null, []];
  if (!join || !parts.every(isLeaf)) return null;
  return { join, rules: parts.map(ruleOf) };
}

export const blankRule: DraftRule = { question: '', op: '', value: '' };

/** The condition a complete draft saves: one rule alone, or the rules under `all` / `any`. */
export function conditionOf(draft: ConditionDraft): Condition {
  const leaves = draft.rules.map(({ question, op, value }): ConditionLeaf => {
    const test = op as ConditionOperator;
    return VALUE_OPERATORS.includes(test)
      ? { question, op: test, value: value.trim() }
      : { question, op: test };
  });
  const [only] = leaves;
  if (leaves.length === 1 && only) return only;
  return draft.join === 'all' ? { all: leaves } : { any: leaves };
}

/**
 * What is missing from each rule, by its index: the question, the test, or the value the test compares with. A rule
 * kept from a saved condition may name a question that is no longer on an earlier page, a test that does not fit it
 * or an option since gone: its select then shows no choice, so it is as missing as one never chosen (and the server
 * would refuse it).
 */
export function draftErrors(
  draft: ConditionDraft,
  questions: readonly EditorField[],
): Record<number, string> {
  const byId = new Map(questions.map((q) => [q._id, q]));
  const errors: Record<number, string> = {};
  draft.rules.forEach((rule, i) => {
    const field = byId.get(rule.question);
    if (!field) errors[i] = 'Choose a question';
    else if (!rule.op || !testsFor(field).includes(rule.op)) errors[i] = 'Choose a test';
    else if (!VALUE_OPERATORS.includes(rule.op)) return;
    else if (valueChoicesOf(field)) {
      if (!valueChoicesOf(field)?.some((o) => o.value === rule.value)) errors[i] = 'Choose an option';
    } else if (rule.value.trim() === '') errors[i] = 'Give a value to compare with';
    else if (logicKindOf(field) === 'date' && !isRealDate(rule.value)) errors[i] = 'Choose a day';
  });
  return errors;
}

/**
 * The values a rule on this question chooses from, when it has a list: a choice question's options, a grid's every
 * row's every column ("Speed: Good"); null for a question compared with what is typed.
 */
export function valueChoicesOf(field: EditorField): { value: string; label: string }[] | null {
  if (field.options) return field.options.map((o) => ({ value: o.value, label: o.value }));
  const grid = field.source?.kind === 'grid' ? field.source.settings : null;
  return grid ? gridChoiceValues(grid).map((value) => ({ value, label: choiceText(value) })) : null;
}

/** The tests that fit a question of this kind. */
export const testsFor = (field: EditorField | undefined): readonly ConditionOperator[] =>
  field ? OPERATORS_BY_KIND[logicKindOf(field)] : [];

/** Whether a question's answer reads as text where it is recalled: not a file, a statement or a grid. */
export const isRecallable = (field: EditorField) => !['file', 'statement', 'grid'].includes(field.kind);

/**
 * The questions a condition on `id` may test: those on pages before its page (a page break starts the page it
 * names; a break at the top names the first page, which nothing comes before).
 */
export function earlierQuestions(
  items: readonly EditorItem[],
  id: string,
  pages: ReadonlyMap<string, number> = pagesOfItems(items),
): EditorField[] {
  const own = pages.get(id) ?? 1;
  return items.filter((item): item is EditorField => !isPageBreak(item) && (pages.get(item._id) ?? 1) < own);
}
