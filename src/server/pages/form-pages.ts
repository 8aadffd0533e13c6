// The pages of a form with page breaks on the page the server draws (customer-form-html.ts), one at a time: the pages
// that apply to the answers so far, by the evaluator the server's submit uses (src/common/logic/applies.ts,
// docs/decisions/042-pages-and-conditions.md). A form without page breaks keeps its steps (form-steps.ts).
import type { PublicForm } from '#common/forms.ts';
import { gridAnswerOfPosted } from '#common/kinds/grid-kind.ts';
import { applicable, type LogicAnswers } from '#common/logic/applies.ts';
import { pagesOf } from '#common/logic/items.ts';
import type { FormState, SentValues } from './customer-form-html.ts';
import { STEP_QUERY } from './form-steps.ts';
import { escapeHtml as e } from './html.ts';

/** The query naming the page a post comes from (`?page=`), beside `?go=next` or `?go=back` for a move. */
export const PAGE_QUERY = 'page';
/** The hidden field carrying the key of the draft that holds the answers of the earlier pages. */
export const DRAFT_FIELD = 'draft';

type Paged = Pick<PublicForm, 'items' | 'checkField'> & Partial<Pick<PublicForm, 'moreField'>>;

/** The form's pages, or null for a form of one page (drawn whole, or in its two steps when it has files). */
export function pagesOfForm(form: Paged) {
  const pages = form.items ? pagesOf(form.items) : [];
  return pages.length > 1 ? pages : null;
}

/**
 * The answers as the evaluator reads them: a checkbox question's list, another's value, a kept file, a grid's rows
 * (posted one radio group a row) as its chosen column by row.
 */
export function logicAnswersOf(
  form: Paged,
  values: SentValues,
  files: Readonly<Record<string, unknown>>,
): LogicAnswers {
  const checks = new Set(form.checkField.map((f) => f._id));
  const answers: Record<string, LogicAnswers[string]> = {};
  for (const [id, sent] of Object.entries(values)) answers[id] = checks.has(id) ? sent : sent[0];
  for (const id of Object.keys(files)) answers[id] = [{ deleteId: id }];
  for (const field of form.moreField ?? [])
    if (field.kind === 'grid') answers[field._id] = gridAnswerOfPosted(field, values);
  return answers;
}

/** One page as drawn: where it stands among the pages that apply so far, and the questions it asks. */
export type PageView = {
  id: string;
  title: string;
  /** Its place among the pages that apply to the answers so far (from 1), and how many those are. */
  number: number;
  count: number;
  questions: ReadonlySet<string>;
  /** The page that applied before it, and the next that applies after it (null: it is the last, with Submit). */
  previous: string | null;
  next: string | null;
};

/**
 * The page `pageId` of a form with page breaks, given the answers so far (`values`, and the files kept), or the first
 * that applies when `pageId` is not one of those that apply; null when `pageId` is not the form's or for a form of
 * one page.
 */
export function pageViewOf(
  form: Paged,
  values: SentValues,
  files: Readonly<Record<string, unknown>>,
  pageId?: string,
): PageView | null {
  const pages = pagesOfForm(form);
  if (!pages) return null;
  const applying = applicable(pages, logicAnswersOf(form, values, files));
  const index = Math.max(0, pageId === undefined ? 0 : applying.pages.indexOf(pageId));
  const id = applying.pages[index] ?? '';
  const page = pages.find((p) => p.id === id);
  return {
    id,
    title: page?.title ?? '',
    number: index + 1,
    count: applying.pages.length,
    questions: new Set(page?.questions.filter((q) => applying.questions.has(q.id)).map((q) => q.id)),
    previous: applying.pages[index - 1] ?? null,
    next: applying.pages[index + 1] ?? null,
  };
}

/** The page of `state` (its draft's page, or the first), for a form with page breaks. */
export const pageViewOfState = (form: PublicForm, state: FormState) =>
  pageViewOf(form, state.values ?? {}, state.kept ?? {}, state.page);

/** The line above the title: "Page 2 of 3 · Your room". */
export const pageLabel = (view: PageView) => `Page ${view.number} of ${view.count}`;

/**
 * Under the form's title, as the React page draws it (src/web/fill/paged/paged-form.tsx), so nothing moves when it
 * takes the first page over: the page's title as a heading, and a bar of the pages that apply so far.
 */
export const pageHeadingHtml = (view: PageView) =>
  (view.title ? `<h2 class="fill-page-title" dir="auto">${e(view.title)}</h2>` : '') +
  `<progress class="fill-page-progress" value="${view.number}" max="${view.count}" aria-hidden="true"></progress>`;

const query = (go: 'next' | 'back' | null, page: string) =>
  `?${go ? `${STEP_QUERY}=${go}&` : ''}${PAGE_QUERY}=${encodeURIComponent(page)}`;

/** Where the page's form posts: Next to the move's address, the last page's Submit to the form's own. */
export const pageAction = (action: string, view: PageView) =>
  action + query(view.next ? 'next' : null, view.id);

/**
 * The bar's buttons: Back from any page but the first, then Next, or Submit on the last page. Enter in a text field
 * presses a form's first submit button, which would be Back: a first button no one sees or tabs to is Next instead.
 */
export function pageButtonsHtml(view: PageView, action: string): { first: string; bar: string } {
  const name = view.next ? 'Next' : 'Submit';
  const primary = `<button type="submit" class="button button-primary fill-primary">${name}</button>`;
  if (!view.previous) return { first: '', bar: primary };
  const back = `<button type="submit" formaction="${e(action + query('back', view.id))}" class="button button-secondary">Back</button>`;
  return {
    first: `<button type="submit" class="visually-hidden" tabindex="-1" aria-hidden="true">${name}</button>`,
    bar: back + primary,
  };
}
