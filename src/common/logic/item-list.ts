// A form's whole list of items as an owner saves it, or an import carries it: each item as the form's JSON has it,
// plus what the per-question calls check one question at a time (names, options, how many), and the logic check.
import { z } from 'zod';
import {
  FIELD_NAME_MAX,
  FIELDS_PER_FORM_MAX,
  OPTION_VALUE_MAX,
  OPTIONS_PER_FIELD_MAX,
} from '../question-schemas.ts';
import { logicProblems } from './check.ts';
import { FormItemSchema, pagesOf, type FormItem } from './items.ts';

/** An item's id: the stored one, or any name the caller gives a new item so that a condition can refer to it. */
export const ITEM_ID_MAX = 100;

type Issue = { path: (string | number)[]; message: string };

/** What is wrong with each item that the item schema alone lets through. */
function itemIssues(items: readonly FormItem[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const at = (message: string, ...path: (string | number)[]) =>
      issues.push({ path: [index, ...path], message });
    if (item._id.length === 0 || item._id.length > ITEM_ID_MAX)
      at(`An item's id is 1 to ${ITEM_ID_MAX} characters`, '_id');
    if (seen.has(item._id)) at(`Two items have the id ${item._id}`, '_id');
    seen.add(item._id);
    if (item.kind === 'page') return;
    if (item.kind === 'text' && item.dateRange && item.type !== 'date')
      at('Only a date question has earliest and latest days', 'dateRange');
    const name = item.name.trim();
    if (name === '') at('Question cannot be empty', 'name');
    if (name.length > FIELD_NAME_MAX) at(`Question must be at most ${FIELD_NAME_MAX} characters`, 'name');
    if (!('options' in item)) return;
    const values = item.options.map((o) => o.value.trim());
    if (values.length === 0) at(`${name}: Add at least one option`, 'options');
    if (values.length > OPTIONS_PER_FIELD_MAX)
      at(`${name}: A question can have at most ${OPTIONS_PER_FIELD_MAX} options`, 'options');
    if (values.some((v) => v === '' || v.length > OPTION_VALUE_MAX))
      at(`${name}: An option is 1 to ${OPTION_VALUE_MAX} characters`, 'options');
    if (new Set(values).size !== values.length) at(`${name}: Value already exists!`, 'options');
  });
  const questions = items.filter((item) => item.kind !== 'page').length;
  if (questions > FIELDS_PER_FORM_MAX)
    issues.push({ path: [], message: `A form can have at most ${FIELDS_PER_FORM_MAX} questions` });
  return issues;
}

/**
 * The items of a form, checked: each item, the list as a whole, and every condition (a condition may test only a
 * question on an earlier page, with an operator that fits it). A refusal names the question or page it is about.
 */
export const ItemListSchema = z
  .array(FormItemSchema)
  .max(2 * FIELDS_PER_FORM_MAX, `A form can have at most ${FIELDS_PER_FORM_MAX} questions and as many pages`)
  .superRefine((items, ctx) => {
    const issues = itemIssues(items);
    for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
    if (issues.length > 0) return;
    // Every broken condition at once, each naming its page or question, so one answer lists all there is to mend.
    // Hidden fields are the form's, not the list's: their names are checked where the form is known.
    const problems = logicProblems(pagesOf(items), 'any');
    if (problems.length > 0)
      ctx.addIssue({ code: 'custom', message: problems.map((p) => p.message).join('; ') });
  });

/** PUT /api/v1/form/{fid}/items: the whole list, and the version of the form it was made from. */
export const SaveItemsBodySchema = z.object({
  items: ItemListSchema,
  version: z.number({ error: 'Send the version of the form the items were made from' }).int().min(1),
});
export type SaveItemsBody = z.input<typeof SaveItemsBodySchema>;
