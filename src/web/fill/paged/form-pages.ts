import type { PublicForm } from '#common/forms.ts';
import { HIDDEN_KEY } from '#common/kinds/link-reading.ts';
import { applicable, applyingAnswers, type Applicable, type LogicPage } from '#common/logic/applies.ts';
import { pagesOf } from '#common/logic/items.ts';
import { orderedQuestions, type Question } from '#common/question-order.ts';
import { customerPaths } from '../../customer-paths.ts';
import type { Draft } from '../storage/fill-storage.ts';

/** A page as the customer's page draws it: its title and its questions, each with its kind and details. */
export type FormPage = { id: string; title: string; questions: Question[] };

export type Pages = {
  pages: FormPage[];
  /** The same pages as the evaluator reads them. */
  logic: LogicPage[];
};

/** The form's pages, cut from its items by the helper the server judges submits with (pagesOf). */
export function formPages(form: PublicForm): Pages {
  const logic = pagesOf(form.items ?? []);
  const byId = new Map(orderedQuestions(form).map((q) => [q.field._id, q]));
  const pages = logic.map(({ id, title, questions }) => ({
    id,
    title,
    questions: questions.flatMap((q) => byId.get(q.id) ?? []),
  }));
  return { pages, logic };
}

/** The answers as the evaluator reads them: the draft's, its files, and the link's hidden fields (`hidden:<name>`). */
const logicAnswersOf = (draft: Pick<Draft, 'values' | 'files' | 'hidden'>) => ({
  ...draft.values,
  ...draft.files,
  ...Object.fromEntries(
    Object.entries(draft.hidden ?? {}).map(([name, value]) => [HIDDEN_KEY + name, value]),
  ),
});

/** What applies to the answers on this device so far: the pages of the customer's path and their questions. */
export const pathOf = (
  logic: readonly LogicPage[],
  draft: Pick<Draft, 'values' | 'files' | 'hidden'>,
): Applicable => applicable(logic, logicAnswersOf(draft));

/** The form with only the questions of `ids`: the shared schema then checks those and no other. */
export function withOnly(form: PublicForm, ids: ReadonlySet<string>): PublicForm {
  const keep = <F extends { _id: string }>(fields: F[]) => fields.filter((f) => ids.has(f._id));
  return {
    ...form,
    textField: keep(form.textField),
    selectField: keep(form.selectField),
    radioField: keep(form.radioField),
    checkField: keep(form.checkField),
    fileField: keep(form.fileField),
    moreField: keep(form.moreField),
  };
}

/**
 * What a paged form sends of the draft: the answers of the questions that apply, so what the customer typed on a
 * page they then skipped (by changing an earlier answer) is left out, as the server requires.
 */
export function applyingDraft(logic: readonly LogicPage[], draft: Draft): Draft {
  const applying = applyingAnswers(logic, logicAnswersOf(draft));
  const keep = <T>(answers: Record<string, T>) =>
    Object.fromEntries(Object.entries(answers).filter(([id]) => id in applying));
  return { ...draft, values: keep(draft.values), files: keep(draft.files) };
}

/** The address of a page: a history entry of its own, which a reload (online or off) opens again. */
export const pageAddress = (pageId: string) =>
  `${customerPaths.preview.href()}?page=${encodeURIComponent(pageId)}`;

/** The page the address names, if any. */
export const pageInAddress = (): string | null => new URLSearchParams(location.search).get('page');
