import { choiceText } from '#common/kinds/grid-kind.ts';
import type { Condition, ConditionLeaf, ConditionOperator } from '#common/logic/conditions.ts';

export const OPERATOR_WORDS: Record<ConditionOperator, string> = {
  is: 'is',
  isNot: 'is not',
  includes: 'includes',
  excludes: 'does not include',
  contains: 'contains',
  atLeast: 'is at least',
  atMost: 'is at most',
  answered: 'is answered',
  empty: 'is not answered',
};

const quoted = (text: string) => `“${text}”`;

function leafText(leaf: ConditionLeaf, names: ReadonlyMap<string, string>): string {
  // A question no longer on the form is named by its id, so the line still says what the condition tests.
  const question = quoted(names.get(leaf.question) ?? leaf.question);
  const words = OPERATOR_WORDS[leaf.op];
  return leaf.value === undefined
    ? `${question} ${words}`
    : `${question} ${words} ${quoted(choiceText(leaf.value))}`;
}

/** A group inside another reads in brackets, so "a and (b or c)" is not taken for "(a and b) or c". */
function nodeText(node: Condition, names: ReadonlyMap<string, string>, nested: boolean): string {
  if ('all' in node || 'any' in node) {
    const [parts, joint] = 'all' in node ? [node.all, ' and '] : [node.any, ' or '];
    const text = parts.map((part) => nodeText(part, names, true)).join(joint);
    return nested && parts.length > 1 ? `(${text})` : text;
  }
  if ('not' in node) return `not ${nodeText(node.not, names, true)}`;
  return leafText(node, names);
}

/**
 * The owner's reading of a condition, e.g. `Shown only if “Do you need a room?” is “Yes”`, with the questions it
 * tests named by `names` (id → question).
 */
export const conditionText = (condition: Condition, names: ReadonlyMap<string, string>) =>
  `Shown only if ${nodeText(condition, names, false)}`;
