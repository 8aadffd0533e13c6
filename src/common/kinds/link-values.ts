// Hidden fields and prefilled answers, read from the form link's query string (docs/decisions/043-question-kinds.md):
// `?ref=crm-42&utm_source=mail` fills the hidden fields the owner declared; `?q_<question id>=…` prefills a question
// the customer still sees and may change. Whatever a link carries is checked like any text the customer types.
import { z } from 'zod';
import { PREFILL_PREFIX } from './link-reading.ts';

export * from './link-reading.ts';

export const HIDDEN_FIELDS_MAX = 20;
export const HIDDEN_NAME_MAX = 40;

/** A hidden field's name: what the link's parameter is called, so letters, digits, `_` and `-`. */
export const HiddenFieldNameSchema = z
  .string()
  .trim()
  .min(1, 'Name the hidden field')
  .max(HIDDEN_NAME_MAX, `A hidden field's name is at most ${HIDDEN_NAME_MAX} characters`)
  .regex(
    /^[A-Za-z][A-Za-z0-9_-]*$/,
    'A hidden field’s name starts with a letter: letters, digits, _ and - only',
  )
  .refine(
    (name) => !name.startsWith(PREFILL_PREFIX),
    `A hidden field’s name cannot start with ${PREFILL_PREFIX}`,
  );

export const HiddenFieldsSchema = z
  .array(HiddenFieldNameSchema)
  .max(HIDDEN_FIELDS_MAX, `A form has at most ${HIDDEN_FIELDS_MAX} hidden fields`)
  .refine((names) => new Set(names).size === names.length, 'Each hidden field has its own name');
