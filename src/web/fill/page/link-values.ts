import type { PublicForm } from '#common/forms.ts';
import { isPrefillable, readLinkValues, type LinkValues } from '#common/kinds/link-reading.ts';
import { orderedQuestions } from '#common/question-order.ts';
import type { Draft } from '../storage/fill-storage.ts';

export type { LinkValues };

/** What the form link's query string fills: its declared hidden fields and the prefills of its questions. */
export function linkValuesOf(form: PublicForm, search: string): LinkValues {
  const askable = orderedQuestions(form).filter(isPrefillable);
  return readLinkValues(
    new URLSearchParams(search),
    form.hiddenFields ?? [],
    askable.map((q) => q.field._id),
  );
}

/**
 * The draft with the link's values: its hidden fields (the link's newest values win), and each prefill where the
 * customer has not answered yet, so an answer of theirs saved on this device is never overwritten by the link. A
 * checkbox question's prefill names its options with commas between them, as the server reads it.
 */
export function withLinkValues(form: PublicForm, draft: Draft, link: LinkValues | undefined): Draft {
  if (!link || (Object.keys(link.prefill).length === 0 && Object.keys(link.hidden).length === 0))
    return draft;
  const checks = new Set(form.checkField.map((f) => f._id));
  const values = { ...draft.values };
  for (const [id, value] of Object.entries(link.prefill)) {
    const given = values[id];
    const answered =
      given !== undefined && (typeof given === 'string' || Array.isArray(given) ? given.length > 0 : true);
    if (answered) continue;
    values[id] = checks.has(id) ? value.split(',').map((v) => v.trim()) : value;
  }
  const hidden = { ...draft.hidden, ...link.hidden };
  return { ...draft, values, ...(Object.keys(hidden).length > 0 ? { hidden } : {}) };
}
