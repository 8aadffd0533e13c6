// The logic check: what is wrong with a form's conditions, said where the problem is. An import or a save with a
// broken condition is refused with these messages; the editor shows them beside the page or question.
import { choiceText } from '../kinds/grid-kind.ts';
import { HIDDEN_KEY, isHiddenKey } from '../kinds/link-values.ts';
import { isNumberText } from '../kinds/number-kind.ts';
import { recalledQuestions } from '../kinds/recall.ts';
import { isRealDate } from '../kinds/simple-kinds.ts';
import type { LogicPage, LogicQuestion } from './applies.ts';
import { leavesOf, OPERATORS_BY_KIND, type Condition } from './conditions.ts';

export type LogicProblem = {
  /** The page or question whose condition is wrong. */
  where: string;
  message: string;
};

const nameOf = (q: LogicQuestion) => (q.name ? `“${q.name}”` : `question ${q.id}`);

/**
 * Every problem of the form's conditions: a condition may test only a question on an earlier page (so there are no
 * loops, and a page's content is known when it is drawn), with an operator that fits its kind and, for a choice,
 * one of its options.
 */
export function logicProblems(
  pages: readonly LogicPage[],
  hiddenFields: readonly string[] | 'any' = [],
): LogicProblem[] {
  const earlier = new Map<string, LogicQuestion>();
  const everywhere = new Map(pages.flatMap((p) => p.questions.map((q) => [q.id, q] as const)));
  const problems: LogicProblem[] = [];
  const check = (where: string, whose: string, condition: Condition | undefined, firstPage = false) => {
    if (!condition) return;
    for (const leaf of leavesOf(condition)) {
      // A hidden field (`hidden:<name>`) is tested as text, and must be one the form declares.
      const hidden = isHiddenKey(leaf.question) ? leaf.question.slice(HIDDEN_KEY.length) : null;
      if (hidden !== null && hiddenFields !== 'any' && !hiddenFields.includes(hidden)) {
        problems.push({
          where,
          message: `${whose} depends on the hidden field “${hidden}”, which the form does not declare`,
        });
        continue;
      }
      // The first page is drawn whole, without conditions: what depends on the link starts on a later page.
      if (hidden !== null && firstPage) {
        problems.push({
          where,
          message: `${whose} depends on the hidden field “${hidden}”: a question on the first page cannot (put a page break before it)`,
        });
        continue;
      }
      const tested =
        hidden !== null
          ? { id: leaf.question, kind: 'text' as const, required: false, name: `the hidden field ${hidden}` }
          : earlier.get(leaf.question);
      if (!tested) {
        const later = everywhere.get(leaf.question);
        problems.push({
          where,
          message: later
            ? `${whose} depends on ${nameOf(later)}, which is not on an earlier page`
            : `${whose} depends on a question that is not on the form (${leaf.question})`,
        });
        continue;
      }
      const fits: readonly string[] = OPERATORS_BY_KIND[tested.kind];
      if (!fits.includes(leaf.op))
        problems.push({ where, message: `${whose}: “${leaf.op}” does not fit ${nameOf(tested)}` });
      else if (
        tested.options &&
        leaf.value !== undefined &&
        (leaf.op === 'is' || leaf.op === 'isNot' || leaf.op === 'includes' || leaf.op === 'excludes') &&
        !tested.options.includes(leaf.value)
      )
        problems.push({
          where,
          message: `${whose} tests ${nameOf(tested)} for “${choiceText(leaf.value)}”, which is not one of its ${tested.kind === 'grid' ? 'choices' : 'options'}`,
        });
      else if (
        (leaf.op === 'atLeast' || leaf.op === 'atMost') &&
        tested.kind === 'date' &&
        !isRealDate(leaf.value ?? '')
      )
        problems.push({
          where,
          message: `${whose} compares ${nameOf(tested)} with something not a day (YYYY-MM-DD)`,
        });
      else if (
        (leaf.op === 'atLeast' || leaf.op === 'atMost') &&
        tested.kind !== 'date' &&
        !isNumberText(leaf.value ?? '')
      )
        problems.push({ where, message: `${whose} compares ${nameOf(tested)} with something not a number` });
    }
  };
  pages.forEach((page, index) => {
    check(page.id, `Page ${index + 1}`, page.condition);
    for (const q of page.questions) check(q.id, `The condition of ${nameOf(q)}`, q.condition, index === 0);
    // A recalled answer must have been given on an earlier page, as a condition's.
    for (const q of page.questions)
      for (const id of recalledQuestions(`${q.name ?? ''} ${q.help ?? ''}`))
        if (!earlier.has(id))
          problems.push({
            where: q.id,
            message: everywhere.has(id)
              ? `${nameOf(q)} recalls the answer to ${nameOf(everywhere.get(id)!)}, which is not on an earlier page`
              : `${nameOf(q)} recalls a question that is not on the form (${id})`,
          });
    for (const q of page.questions) earlier.set(q.id, q);
  });
  return problems;
}
