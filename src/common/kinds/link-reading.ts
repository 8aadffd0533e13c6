// What a form link carries, read without schemas (link-values.ts re-exports it): the customer's React page reads its
// link at the first touch, which loads no zod.
import { TEXT_ANSWER_MAX } from '../answer-limits.ts';
import { unstorableReason } from '../unstorable-text.ts';

/** The query parameter that prefills question `id`. */
export const PREFILL_PREFIX = 'q_';

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
