// The pieces every question of the server-drawn customer page is made of (customer-form-html.ts,
// more-kinds-html.ts): ids, attributes, the label with its "required", the help text and the error message. The
// markup is that of the React page's components (src/web/fill/questions), so the take-over moves nothing.
import { escapeHtml as e } from './html.ts';

export const errorId = (id: string) => `q-${id}-error`;
export const hintId = (id: string) => `q-${id}-hint`;
export const againId = (id: string) => `q-${id}-again`;
export const helpId = (id: string) => `q-${id}-help`;

/** The owner's help text under a question's title, as the React page draws it (question-label.tsx). */
export const helpOf = (field: { _id: string; help?: string }) =>
  field.help ? `<p class="fill-help" id="${helpId(field._id)}" dir="auto">${e(field.help)}</p>` : '';
export const helpIdOf = (field: { _id: string; help?: string }) =>
  field.help ? helpId(field._id) : undefined;

export const attrs = (list: Record<string, string | boolean | undefined>) =>
  Object.entries(list)
    .flatMap(([name, value]) =>
      value === undefined || value === false ? [] : [value === true ? ` ${name}` : ` ${name}="${e(value)}"`],
    )
    .join('');

export const label = (name: string, required: boolean) =>
  e(name) +
  (required
    ? '<span class="fill-required"><span aria-hidden="true"> *</span><span class="visually-hidden"> required</span></span>'
    : '');

export const errorOf = (id: string, message: string | undefined) =>
  message
    ? `<p class="field-error fill-error" id="${errorId(id)}" dir="auto"><span aria-hidden="true" class="fill-error-icon">!</span>${e(message)}</p>`
    : '';

export const describedBy = (...ids: (string | false | undefined)[]) =>
  ids.filter(Boolean).join(' ') || undefined;
