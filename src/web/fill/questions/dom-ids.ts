/** Element ids of a question's control and its error, shared by the fields and the code that focuses them. */
export const controlId = (questionId: string) => `q-${questionId}`;
export const errorId = (questionId: string) => `q-${questionId}-error`;
export const hintId = (questionId: string) => `q-${questionId}-hint`;
export const helpId = (questionId: string) => `q-${questionId}-help`;

/**
 * What describes a question's control, in the order read: its help text (when it has one), then what else is given
 * (a hint, the error). Undefined when nothing does.
 */
export const describedBy = (field: { _id: string; help?: string }, ...more: (string | false | null)[]) =>
  [field.help ? helpId(field._id) : null, ...more].filter(Boolean).join(' ') || undefined;

/** Moves focus to a question's control (the first option of a group) and brings it into view. */
export function focusQuestion(questionId: string): void {
  const element = document.getElementById(controlId(questionId));
  const target = element instanceof HTMLFieldSetElement ? element.querySelector('input') : element;
  target?.focus({ preventScroll: true });
  (element ?? target)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
}
