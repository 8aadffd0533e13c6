// The error summary at the top of a form page sent back with answers to fix (customer-form-html.ts), and the ids
// of the controls its links take the focus to.
import type { PublicForm } from '#common/forms.ts';
import { orderedQuestions, type Question } from '#common/question-order.ts';
import type { QuestionErrors } from './customer-form-html.ts';
import { escapeHtml as e } from './html.ts';

/** A question's control (an input, a select, a group's fieldset). */
export const controlId = (id: string) => `q-${id}`;
/**
 * A radio or checkbox question's first option: where the error summary's link takes the focus. A link to the
 * fieldset focuses nothing (a fieldset is not focusable), which left a screen reader on the page's body. Only the
 * page drawn without a script has the summary, so the React page's options need no such id.
 */
export const firstOptionId = (id: string) => `q-${id}-first`;

/**
 * What joins a question to its message in the error summary: ": ", or only a space after a question that already
 * ends in its own punctuation ("Which activities interest you? Tick…", not "you?: Tick…"), in any script.
 */
export function summarySeparator(question: string): string {
  return /[.?!:;…؟۔。？！：；।]$/u.test(question.trimEnd()) ? ' ' : ': ';
}

/** The control a summary link focuses: the question's own, or a group's first option. */
const summaryTarget = (q: Question) =>
  ((q.kind === 'radio' || q.kind === 'check') && q.field.options.length > 0) ||
  q.kind === 'rating' ||
  q.kind === 'scale' ||
  q.kind === 'consent' ||
  q.kind === 'grid'
    ? firstOptionId(q.field._id)
    : controlId(q.field._id);

/**
 * The list at the top of a refused form: one link per question to fix, in the form's order. It takes the focus when
 * the page loads (`autofocus`: a posted page runs no script), so a keyboard or screen-reader user starts at it.
 */
export function errorSummary(form: PublicForm, errors: QuestionErrors): string {
  const items = orderedQuestions(form)
    .filter((q) => errors[q.field._id])
    .map(
      (q) =>
        `<li><a href="#${summaryTarget(q)}"><span dir="auto">${e(q.field.name)}</span>` +
        `${summarySeparator(q.field.name)}${e(errors[q.field._id] ?? '')}</a></li>`,
    );
  if (items.length === 0) return '';
  const title =
    items.length === 1 ? 'One answer needs your attention' : `${items.length} answers need your attention`;
  return (
    `<div class="fill-card fill-summary" role="alert" aria-labelledby="fill-summary-title" tabindex="-1" autofocus>` +
    `<h2 id="fill-summary-title">${title}</h2><ul>${items.join('')}</ul></div>`
  );
}
