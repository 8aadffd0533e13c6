// Hidden fields and prefilled answers, read from the form link's query string (docs/decisions/043-question-kinds.md):
// `?ref=crm-42&utm_source=mail` fills the hidden fields the owner declared; `?q_<question id>=…` prefills a question
// the customer still sees and may change. Whatever a link carries is checked like any text the customer types.
import { z } from 'zod';
import { TEXT_ANSWER_MAX } from '../answer-limits.ts';
import { unstorableReason } from '../unstorable-text.ts';

export const HIDDEN_FIELDS_MAX = 20;
export const HIDDEN_NAME_MAX = 40;
/** The query parameter that prefills question `id`. */
export const PREFILL_PREFIX = 'q_';

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

/**
 * How a hidden field is named where answers are keyed by question id: in a condition's `question`
 * (`hidden:ref`), and as the input the page without JavaScript carries it in. A question id never starts so.
 */
export const HIDDEN_KEY = 'hidden:';
export const isHiddenKey = (key: string) => key.startsWith(HIDDEN_KEY);

export type LinkValues = {
  /** Declared hidden fields the link filled, by name. */
  hidden: Record<string, string>;
  /** Prefilled answers, by question id, for the questions the form has. */
  prefill: Record<string, string>;
};

/** Whether a link may prefill a question of this kind: not a file, a statement (nothing to fill) or a grid. */
export const isPrefillable = (question: { kind: string }) =>
  question.kind !== 'file' && question.kind !== 'statement' && question.kind !== 'grid';

/** A value a link may carry: cut to TEXT_ANSWER_MAX, and left out when it cannot be stored. */
function usable(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '' || unstorableReason(trimmed)) return null;
  return trimmed.slice(0, TEXT_ANSWER_MAX);
}

/**
 * What the link fills: the declared hidden fields and the prefills of questions the form has; anything else in the
 * query string (a tracker's parameters, a mistyped name) is ignored, so a link never breaks the form. The first of a
 * repeated parameter wins.
 */
export function readLinkValues(
  query: URLSearchParams,
  declared: readonly string[],
  questionIds: readonly string[],
): LinkValues {
  const hidden: Record<string, string> = {};
  const prefill: Record<string, string> = {};
  for (const name of declared) {
    const value = query.get(name);
    const kept = value === null ? null : usable(value);
    if (kept !== null) hidden[name] = kept;
  }
  for (const id of questionIds) {
    const value = query.get(`${PREFILL_PREFIX}${id}`);
    const kept = value === null ? null : usable(value);
    if (kept !== null) prefill[id] = kept;
  }
  return { hidden, prefill };
}

/** The link the editor's share panel builds: the form's address with the chosen prefills. */
export function prefilledLink(formUrl: string, prefill: Readonly<Record<string, string>>): string {
  const url = new URL(formUrl);
  for (const [id, value] of Object.entries(prefill))
    if (value.trim() !== '') url.searchParams.set(`${PREFILL_PREFIX}${id}`, value.trim());
  return url.toString();
}
