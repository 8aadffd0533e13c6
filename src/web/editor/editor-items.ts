import type { Form } from '#common/forms.ts';
import type { Condition } from '#common/logic/conditions.ts';
import type { FormItem, QuestionItem } from '#common/logic/items.ts';
import { fieldsInOrder, type EditorField } from './fields-in-order.ts';

/** A page break as the editor shows it: the page it starts, its title and, read-only here, its condition. */
export type EditorPageBreak = { kind: 'page'; _id: string; title: string; condition?: Condition };
/** One card of the question list: a question or a page break, in the form's order. */
export type EditorItem = EditorField | EditorPageBreak;

export const isPageBreak = (item: EditorItem): item is EditorPageBreak => item.kind === 'page';

/** The form's questions and page breaks in order; a copy without `items` (an older one) is its questions. */
export const itemsInOrder = (form: Form): EditorItem[] =>
  form.items ? editorItemsOf(form.items) : fieldsInOrder(form);

export function editorItemsOf(items: readonly FormItem[]): EditorItem[] {
  return items.map((item): EditorItem => {
    if (item.kind === 'page') return item;
    const { _id, kind, name, required, condition, help } = item;
    const field: EditorField = { _id, kind, name, required, condition, help, source: item };
    if (item.kind === 'text') field.type = item.type;
    if ('options' in item) field.options = item.options;
    return field;
  });
}

/**
 * The list as `PUT …/items` takes it: each question with the name and settings the list holds, and a text question's
 * `value` as the form gave it (the editor does not show it).
 */
export function toFormItems(items: readonly EditorItem[]): FormItem[] {
  return items.map((item): FormItem => {
    if (isPageBreak(item)) return item;
    const { _id, kind, name, required, type, options, condition, help, source } = item;
    const base = { _id, name, required, condition, ...(help ? { help } : {}) };
    if (kind === 'text') {
      const value = source?.kind === 'text' ? source.value : undefined;
      // A date question keeps its range; a question that stops being one loses it, as the server would.
      const range = type === 'date' && source?.kind === 'text' ? source.dateRange : undefined;
      return {
        ...base,
        kind,
        type: type ?? 'text',
        ...(value === undefined ? {} : { value }),
        ...(range ? { dateRange: range } : {}),
      };
    }
    // A file question keeps its own types and size limit.
    if (kind === 'file') {
      const rules = source?.kind === 'file' ? source.rules : undefined;
      return { ...base, kind, type: 'file', ...(rules ? { rules } : {}) };
    }
    if (kind === 'select' || kind === 'radio' || kind === 'check')
      return { ...base, kind, options: options ?? [] };
    // A kind beyond the product's five: its settings are the form's own, sent back as they were.
    return { ...(source as QuestionItem), ...base, kind } as QuestionItem;
  });
}

/**
 * The page each page break starts, counted as the customer sees them: a break before any question names the first
 * page rather than start a second one (pagesOf in the model).
 */
export function pageNumbers(items: readonly EditorItem[]): ReadonlyMap<string, number> {
  const pages = pagesOfItems(items);
  return new Map(items.filter(isPageBreak).map((item) => [item._id, pages.get(item._id) ?? 1]));
}

/** The page every item is on (a page break: the page it starts), counted as pageNumbers counts them. */
export function pagesOfItems(items: readonly EditorItem[]): ReadonlyMap<string, number> {
  const pages = new Map<string, number>();
  let page = 1;
  items.forEach((item, i) => {
    if (isPageBreak(item) && i > 0) page += 1;
    pages.set(item._id, page);
  });
  return pages;
}

/** What each item is called, for the lines that describe conditions. */
export const namesOf = (items: readonly EditorItem[]) =>
  new Map(items.map((item) => [item._id, isPageBreak(item) ? item.title : item.name]));
