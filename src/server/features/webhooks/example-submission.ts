import { randomUUID } from 'node:crypto';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { AnswerForWebhook, SubmissionForWebhook } from './deps.ts';

/**
 * What Send test POSTs (docs/decisions/023-webhooks.md): the form and one example answer per question, in the
 * form's order, shaped as a real delivery's. A text answer is 'Example answer'; a single choice its first option, a
 * checkbox question a list of its first option; a file question has no file (`file` null, `files` empty), since no
 * upload exists to sign a URL for, so a receiver meets the shape of an answer left empty; a grid chooses its first
 * column in every row. Each declared hidden field holds `example-<name>`.
 */
export function exampleSubmissionOf(form: Form): SubmissionForWebhook {
  const fields = new Map(fieldsOf(form).map((f) => [f._id, f]));
  const answers = form.fieldOrder.flatMap(({ _id, kind }): AnswerForWebhook[] => {
    const field = fields.get(_id);
    if (!field) return [];
    const first = 'options' in field ? (field.options[0]?.value ?? null) : null;
    const value =
      'kind' in field && field.kind === 'grid'
        ? Object.fromEntries(field.settings.rows.map((row) => [row, field.settings.columns[0] ?? '']))
        : kind in MORE_EXAMPLES
          ? (MORE_EXAMPLES[kind] ?? null)
          : kind === 'text'
            ? 'Example answer'
            : kind === 'check'
              ? first === null
                ? []
                : [first]
              : kind === 'file'
                ? null
                : first;
    const files = kind === 'file' ? { files: [] } : {};
    return [{ fieldId: _id, question: field.name, kind, value, file: null, ...files }];
  });
  return {
    form: { id: form._id, title: form.formTitle },
    submission: { id: randomUUID(), createdAt: new Date().toISOString() },
    answers,
    hidden: Object.fromEntries(form.hiddenFields.map((name) => [name, `example-${name}`])),
  };
}

/** An example answer of each kind beyond the product's five, as such a kind's answer is sent (docs/api.md). */
const MORE_EXAMPLES: Partial<Record<string, string | null>> = {
  number: '3',
  rating: '4',
  scale: '9',
  statement: null,
  consent: 'yes',
  time: '14:30',
  url: 'https://example.org',
};
