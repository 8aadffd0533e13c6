import type { FieldDefinition, Form, FormDefinition } from '#common/forms.ts';

/**
 * The form as a portable definition: what import and duplicate start from. Its items carry the pages and
 * conditions; its fields are the same questions for a reader that knows only them.
 */
export function toDefinition(form: Form): FormDefinition {
  const byId = new Map<string, FieldDefinition>();
  for (const f of form.textField)
    byId.set(f._id, {
      kind: 'text',
      name: f.name,
      type: f.type,
      required: f.required,
      ...(f.dateRange ? { dateRange: f.dateRange } : {}),
    });
  for (const f of form.fileField)
    byId.set(f._id, {
      kind: 'file',
      name: f.name,
      required: f.required,
      ...(f.rules ? { rules: f.rules } : {}),
    });
  for (const { _id, ...f } of form.moreField) byId.set(_id, f);
  for (const kind of ['select', 'radio', 'check'] as const) {
    for (const f of form[`${kind}Field`]) {
      byId.set(f._id, { kind, name: f.name, required: f.required, options: f.options.map((o) => o.value) });
    }
  }
  return {
    easyForm: 1,
    formTitle: form.formTitle,
    description: form.description,
    color: form.color,
    border: form.border,
    fields: form.fieldOrder.flatMap(({ _id }) => byId.get(_id) ?? []),
    items: form.items,
    ...(form.hiddenFields.length > 0 ? { hiddenFields: form.hiddenFields } : {}),
  };
}
