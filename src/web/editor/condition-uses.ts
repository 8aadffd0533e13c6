// What deleting a question or an option, or renaming an option, does to the conditions that test it: the editor
// names those conditions before it deletes, and saves the list with them changed in the same step.
import type { Condition, ConditionLeaf } from '#common/logic/conditions.ts';
import { isPageBreak, type EditorItem } from './editor-items.ts';

/** A question, or one option of it (by the option's text, as conditions compare). */
export type Target = { question: string; option?: string };

const tests = (leaf: ConditionLeaf, target: Target) =>
  leaf.question === target.question && (target.option === undefined || leaf.value === target.option);

function uses(condition: Condition, target: Target): boolean {
  if ('all' in condition) return condition.all.some((c) => uses(c, target));
  if ('any' in condition) return condition.any.some((c) => uses(c, target));
  if ('not' in condition) return uses(condition.not, target);
  return tests(condition, target);
}

/** The items whose condition tests `target`. */
export const itemsUsing = (items: readonly EditorItem[], target: Target): EditorItem[] =>
  items.filter((item) => item._id !== target.question && item.condition && uses(item.condition, target));

/** `condition` without the tests of `target`; a group left with one part becomes it, an empty one goes. */
export function without(condition: Condition, target: Target): Condition | undefined {
  if ('all' in condition || 'any' in condition) {
    const join = 'all' in condition ? 'all' : 'any';
    const parts = ('all' in condition ? condition.all : condition.any).flatMap(
      (c) => without(c, target) ?? [],
    );
    if (parts.length === 0) return undefined;
    if (parts.length === 1) return parts[0];
    return join === 'all' ? { all: parts } : { any: parts };
  }
  if ('not' in condition) {
    const inner = without(condition.not, target);
    return inner ? { not: inner } : undefined;
  }
  return tests(condition, target) ? undefined : condition;
}

function withCondition(item: EditorItem, condition: Condition | undefined): EditorItem {
  const { condition: _old, ...rest } = item;
  return condition ? { ...rest, condition } : rest;
}

/** The list after deleting `target` (the question, or only its option), every condition freed of its tests. */
export function deleting(items: readonly EditorItem[], target: Target): EditorItem[] {
  return items.flatMap((item): EditorItem[] => {
    if (item._id === target.question && target.option === undefined) return [];
    let next = item;
    if (item._id === target.question && !isPageBreak(item) && item.options)
      next = { ...item, options: item.options.filter((o) => o.value !== target.option) };
    return [item.condition ? withCondition(next, without(item.condition, target)) : next];
  });
}

function renamed(condition: Condition, target: Target, to: string): Condition {
  if ('all' in condition) return { all: condition.all.map((c) => renamed(c, target, to)) };
  if ('any' in condition) return { any: condition.any.map((c) => renamed(c, target, to)) };
  if ('not' in condition) return { not: renamed(condition.not, target, to) };
  return tests(condition, target) ? { ...condition, value: to } : condition;
}

/** The list after renaming the option `target` to `to`, the conditions that test it following it. */
export function renamingOption(
  items: readonly EditorItem[],
  target: Required<Target>,
  to: string,
): EditorItem[] {
  return items.map((item) => {
    let next = item;
    if (item._id === target.question && !isPageBreak(item) && item.options)
      next = {
        ...item,
        options: item.options.map((o) => (o.value === target.option ? { ...o, value: to } : o)),
      };
    return item.condition ? withCondition(next, renamed(item.condition, target, to)) : next;
  });
}

/** Replaces the condition of the item `id`, or removes it (undefined). */
export const settingCondition = (
  items: readonly EditorItem[],
  id: string,
  condition: Condition | undefined,
) => items.map((item) => (item._id === id ? withCondition(item, condition) : item));
