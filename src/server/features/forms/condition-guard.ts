// The product's per-question calls (delete a question, rename or delete an option, reorder) know nothing of pages and
// conditions. One of them that would break a condition (a question it tests deleted or moved after it, an option it
// tests gone) is refused, naming the condition, and nothing changes: the owner changes or removes the condition first
// (docs/decisions/042-pages-and-conditions.md). A problem the form already had does not refuse an unrelated edit.
import type { Form } from '#common/forms.ts';
import { isHiddenKey } from '#common/kinds/link-values.ts';
import { logicProblems } from '#common/logic/check.ts';
import { leavesOf } from '#common/logic/conditions.ts';
import { pagesOf } from '#common/logic/items.ts';
import { HttpError } from '../../http/errors.ts';

const problemsOf = (form: Form) =>
  form.items.some((item) => item.condition)
    ? logicProblems(pagesOf(form.items), form.hiddenFields).map((p) => p.message)
    : [];

/** Throws 409 IN_USE when `after` has a condition problem `before` did not. */
export function refuseBrokenConditions(before: Form, after: Form): void {
  const had = new Set(problemsOf(before));
  const broken = problemsOf(after).filter((message) => !had.has(message));
  if (broken.length === 0) return;
  throw new HttpError(
    409,
    'IN_USE',
    `A condition uses what this change would remove or move: ${broken.join('; ')}. Change or remove that condition first.`,
  );
}

/**
 * Throws 400 when a condition of `form` tests a hidden field it does not declare: the list of items is checked
 * without the form (any `hidden:<name>` passes there), so the names are checked once the form is known.
 */
export function refuseUndeclaredHidden(form: Form): void {
  // The list's own check has run: only a form whose conditions test a hidden field has anything left to check.
  const testsHidden = form.items.some(
    (item) => item.condition && leavesOf(item.condition).some((leaf) => isHiddenKey(leaf.question)),
  );
  if (!testsHidden) return;
  const problems = logicProblems(pagesOf(form.items), form.hiddenFields);
  if (problems.length > 0)
    throw new HttpError(400, 'VALIDATION_FAILED', `items: ${problems.map((p) => p.message).join('; ')}`);
}
