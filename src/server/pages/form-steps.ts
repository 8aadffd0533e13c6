// The two steps of a form with file questions on the page the server draws (customer-form-html.ts), as the React
// page draws them (src/web/fill/questions/preview-form.tsx, src/web/fill/files/file-upload-form.tsx): the same
// step line, the same questions at each step and the same buttons, so nothing changes when the script takes over.
import type { PublicForm } from '#common/forms.ts';
import type { Question } from '#common/question-order.ts';
import type { FormState, SentValues } from './customer-form-html.ts';
import { escapeHtml as e } from './html.ts';

/**
 * The query of a post that only moves between steps (`?go=files`: Next; `?go=answers`: Back): such a post stores
 * nothing, so it is not counted against the address's submissions. In the address, not the body, so that it is
 * known before the body is read, and a post that says it only moves can never store.
 */
export const STEP_QUERY = 'go';
/** Where a page posts to move to `step`. */
export const stepAction = (action: string, step: FormStep) => `${action}?${STEP_QUERY}=${step}`;

/**
 * The two steps of a form with file questions, as the React page has them (docs/product.md, Customer pages): its
 * other questions with Next, then its files with Back and Submit. A form without files is one page with Submit.
 */
export type FormStep = 'answers' | 'files';

/** The step this page of `form` draws, or null for a form without files (one page). */
export const stepOf = (form: PublicForm, state: FormState): FormStep | null =>
  form.fileField.length > 0 ? (state.step ?? 'answers') : null;

/** The line above the title naming the step, as the React page's heading writes it. */
export const stepLabel = (step: FormStep | null): string | undefined =>
  step === null ? undefined : step === 'answers' ? 'Step 1 of 2 · Your answers' : 'Step 2 of 2 · Files';

/**
 * The answers of the first step, carried by the files step in hidden fields so that its Submit posts the whole form
 * and its Back draws them again.
 */
export const carriedHtml = (questions: readonly Question[], values: SentValues) =>
  questions
    .flatMap((q) =>
      (values[q.field._id] ?? []).map(
        (v) => `<input type="hidden" name="${e(q.field._id)}" value="${e(v)}">`,
      ),
    )
    .join('');

/** The bar's buttons, named as the React page names them at this step (`action`: the final post's address). */
export function buttonsHtml(step: FormStep | null, action: string): string {
  const primary = (name: string) =>
    `<button type="submit" class="button button-primary fill-primary">${name}</button>`;
  if (step === 'answers') return primary('Next');
  if (step === 'files') {
    return (
      `<button type="submit" formaction="${e(stepAction(action, 'answers'))}" class="button button-secondary">Back</button>` +
      primary('Submit')
    );
  }
  return primary('Submit');
}
