// A form with page breaks posted without JavaScript, one page at a time (docs/decisions/024 and 042): each post
// carries one page's answers and the key of the draft holding the earlier pages'. Next checks the page as the final
// submit would and goes to the next page that applies; Back goes to the previous one; the last page's Submit sends
// the answers of the questions that apply, those left behind on a page no longer shown left out.
import type { Form } from '#common/forms.ts';
import { gridInputsOf } from '#common/kinds/grid-kind.ts';
import { applicable } from '#common/logic/applies.ts';
import type { FileAnswer } from '#common/submissions.ts';
import type { Queryable } from '../../../db/database.ts';
import { HIDDEN_PREFIX, type QuestionErrors, type SentValues } from '../../../pages/customer-form-html.ts';
import {
  DRAFT_FIELD,
  logicAnswersOf,
  pagesOfForm,
  pageViewOf,
  type PageView,
} from '../../../pages/form-pages.ts';
import { AnswersError, readAnswers } from '../ingest/answers.ts';
import type { SubmitInput } from '../ingest/submitter.ts';
import { findByIdempotencyKeys } from '../repository.ts';
import { readDraft, type DraftState } from './drafts.ts';
import { bodyOf, type Posted } from './read-posted.ts';

export const PAGES_LOST =
  'The answers of the earlier pages are no longer kept (a day has passed, or they were sent). Open the form again to start over.';
export const NOT_A_PAGE =
  'This page is not one of the form’s pages for your answers (the form may have changed). Open the form again.';
export const LAST_PAGE = 'No more pages apply to your answers: Submit sends them.';

type Answers = { values: SentValues; files: Record<string, FileAnswer[]> };

/** What a post of one page comes to: a refusal, a page to draw from a draft, or the answers to store. */
export type PagedOutcome = { discard: string[] } & (
  | { refuse: string }
  | { sent: true }
  | { draw: DraftState }
  | { submit: SubmitInput['body']; drafted: (more: Partial<DraftState>) => DraftState; kept: string[] }
);

/** The answers so far: the draft's, with those of the page's own questions as posted, and the uploads replaced. */
function mergedAnswers(form: Form, base: Answers, view: PageView, posted: Posted) {
  const values = { ...base.values };
  const files = { ...base.files };
  const discard: string[] = [];
  const fileIds = new Set(form.fileField.map((f) => f._id));
  // The hidden fields ride on every page as hidden inputs: the latest post's are kept.
  for (const [name, sent] of Object.entries(posted.values))
    if (name.startsWith(HIDDEN_PREFIX)) values[name] = sent;
  const rowsOf = new Map(form.moreField.map((f) => [f._id, gridInputsOf([f])]));
  for (const id of view.questions) {
    if (fileIds.has(id)) continue;
    // A question the page drew and the browser sent nothing for is an empty answer (no option chosen); a grid is
    // posted one input a row.
    for (const name of rowsOf.get(id)?.length ? (rowsOf.get(id) ?? []) : [id]) {
      if (posted.values[name]) values[name] = posted.values[name];
      else delete values[name];
    }
  }
  for (const [id, sent] of Object.entries(posted.files)) {
    const replaced = files[id] ?? [];
    // Only the page's own file questions take files; those they replace go, as those sent for no question here.
    if (!view.questions.has(id)) discard.push(...sent.map((f) => f.deleteId));
    else {
      discard.push(...replaced.map((f) => f.deleteId));
      files[id] = sent;
    }
  }
  return { answers: { values, files }, discard };
}

/** The submit's body: the answers of the questions that apply, the rest left out. */
function applyingBody(form: Form, answers: Answers): SubmitInput['body'] {
  const pages = pagesOfForm(form) ?? [];
  const { questions } = applicable(pages, logicAnswersOf(form, answers.values, answers.files));
  // An input's question: its name, or a grid row's (`<question id>.<row number>`); a question id has no dot.
  const only = <T>(record: Record<string, T>) =>
    Object.fromEntries(
      Object.entries(record).filter(
        ([name]) => questions.has(name.split('.')[0] ?? name) || name.startsWith(HIDDEN_PREFIX),
      ),
    );
  return bodyOf(form, { values: only(answers.values), files: only(answers.files) });
}

/** What the final submit would say of the page's own questions. */
function pageErrors(form: Form, answers: Answers, view: PageView, posted: Posted): QuestionErrors {
  let issues: QuestionErrors = {};
  try {
    readAnswers(form, applyingBody(form, answers));
  } catch (error) {
    if (!(error instanceof AnswersError)) throw error;
    issues = error.issues;
  }
  issues = { ...issues, ...posted.questionErrors };
  return Object.fromEntries(Object.entries(issues).filter(([id]) => view.questions.has(id)));
}

/**
 * One page of a form with page breaks, posted with Next (`move` 'next'), Back ('back') or the last page's Submit.
 * Refused, storing nothing, when its draft is missing or another page's, or when `pageId` is not a page that applies.
 */
export async function postPage(
  db: Queryable,
  form: Form,
  posted: Posted,
  token: string,
  move: 'next' | 'back' | undefined,
  pageId: string,
): Promise<PagedOutcome> {
  const key = posted.values[DRAFT_FIELD]?.[0];
  const draft = key ? await readDraft(db, form._id, key) : null;
  const refuse = (message: string) => ({ refuse: message, discard: posted.deleteIds });
  if (key !== undefined && draft?.token !== token) {
    // The last page sent again (a double click, Back and Submit) after its answers were stored: its drafts went
    // with them, and the page's token finds the response, as on a form without pages.
    const stored = !draft && !move && (await findByIdempotencyKeys(db, [{ formId: form._id, key: token }]));
    if (stored && stored.size > 0) return { sent: true, discard: posted.deleteIds };
    return refuse(PAGES_LOST);
  }
  const base = { values: draft?.values ?? {}, files: draft?.files ?? {} };
  const view = pageViewOf(form, base.values, base.files, pageId);
  if (!view || view.id !== pageId) return refuse(NOT_A_PAGE);
  // A later page posted without the draft of the earlier ones: their answers are not here to go on with.
  if (!draft && view.previous) return refuse(PAGES_LOST);

  const { answers, discard } = mergedAnswers(form, base, view, posted);
  const drafted = (more: Partial<DraftState>): DraftState => ({ token, ...answers, page: view.id, ...more });
  if (move === 'back') return { draw: drafted({ page: view.previous ?? view.id }), discard };
  const errors = pageErrors(form, answers, view, posted);
  if (Object.keys(errors).length > 0) return { draw: drafted({ errors }), discard };
  const next = pageViewOf(form, answers.values, answers.files, view.id)?.next;
  if (next) return { draw: drafted({ page: next }), discard };
  // Next on what its answers made the last page: drawn again, with Submit.
  if (move === 'next') return { draw: drafted({ message: LAST_PAGE }), discard };
  const kept = Object.values(answers.files).flatMap((list) => list.map((f) => f.deleteId));
  return { submit: applyingBody(form, answers), drafted, kept, discard };
}

/** The page that applies with the first of `issues` (the submit's refusal), to draw them on. */
export function pageOfIssues(form: Form, state: DraftState, issues: QuestionErrors): string | undefined {
  const pages = pagesOfForm(form) ?? [];
  const applying = applicable(pages, logicAnswersOf(form, state.values ?? {}, state.files ?? {}));
  return pages.find(
    (p) => applying.pages.includes(p.id) && p.questions.some((q) => issues[q.id] !== undefined),
  )?.id;
}

/**
 * Where a post of the whole form (no page named: a page drawn before the owner added page breaks, or a hand-made
 * post) refused with `issues` is drawn, for a form with page breaks: the page of the first, or, for an answer to a
 * question no page that applies asks, a message for the whole form.
 */
export function wholeFormRefusal(form: Form, values: SentValues, issues: QuestionErrors) {
  if (!pagesOfForm(form)) return {};
  const page = pageOfIssues(form, { token: '', values }, issues);
  return page ? { page } : { message: Object.values(issues)[0] };
}
