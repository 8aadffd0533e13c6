// A submit's hidden fields (docs/decisions/043-question-kinds.md): the values the form's link filled, by the names the
// form declares, checked like any text answer before they are kept with the response.
import { TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form } from '#common/forms.ts';
import { HttpError } from '../../../http/errors.ts';

export const NOT_A_HIDDEN_FIELD = 'This form has no hidden field of that name';

/**
 * The hidden values to keep: trimmed, blanks left out; null when none. A name the form does not declare is refused
 * (400, naming it), unless the body comes from an older version of the form (`lenient`): the owner may have removed
 * the field since the page was drawn, and the customer's answers must not be lost for it.
 */
export function judgeHidden(
  form: Pick<Form, 'hiddenFields'>,
  sent: Readonly<Record<string, string>>,
  lenient: boolean,
): Record<string, string> | null {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(sent)) {
    if (!form.hiddenFields.includes(name)) {
      if (lenient) continue;
      throw new HttpError(400, 'VALIDATION_FAILED', `${name}: ${NOT_A_HIDDEN_FIELD}`);
    }
    const text = value.trim();
    if (text.length > TEXT_ANSWER_MAX)
      throw new HttpError(400, 'VALIDATION_FAILED', `${name}: Keep it under ${TEXT_ANSWER_MAX} characters`);
    if (text !== '') kept[name] = text;
  }
  return Object.keys(kept).length > 0 ? kept : null;
}
