// What a form link's query string fills on the page the server draws (docs/decisions/043-question-kinds.md): the
// hidden fields the form declares, carried as hidden inputs, and the questions prefilled with `?q_<id>=`, shown with
// the value for the customer to keep or change. Anything else in the query is ignored.
import type { PublicForm } from '#common/forms.ts';
import { isPrefillable, readLinkValues } from '#common/kinds/link-values.ts';
import { orderedQuestions } from '#common/question-order.ts';
import { hiddenInputName, type SentValues } from './customer-form-html.ts';

/** The page's first values from its address's query: `search` is what follows the `?` (or nothing). */
export function linkValuesState(form: PublicForm, search: string): SentValues {
  const questions = orderedQuestions(form).filter(isPrefillable);
  const { hidden, prefill } = readLinkValues(
    new URLSearchParams(search),
    form.hiddenFields ?? [],
    questions.map((q) => q.field._id),
  );
  const values: SentValues = {};
  for (const q of questions) {
    const value = prefill[q.field._id];
    if (value === undefined) continue;
    // A checkbox question's prefill names its options with commas between them ("Wifi,Parking").
    values[q.field._id] = q.kind === 'check' ? value.split(',').map((v) => v.trim()) : [value];
  }
  for (const [name, value] of Object.entries(hidden)) values[hiddenInputName(name)] = [value];
  return values;
}
