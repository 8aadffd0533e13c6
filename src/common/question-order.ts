import type { ChoiceField, FileField, MoreField, MoreKind, PublicForm, TextField } from './forms.ts';

/** One question of the customer's page, with its kind, in the owner's order. */
export type Question =
  | { kind: 'text'; field: TextField }
  | { kind: 'select' | 'radio' | 'check'; field: ChoiceField }
  | { kind: 'file'; field: FileField }
  | { kind: MoreKind; field: MoreField };

/**
 * Questions in `fieldOrder`; any question the order misses is appended rather than lost. The React page and the
 * page the server draws without JavaScript (server/customer-form-html.ts) both ask in this order. A copy of a form
 * stored before the kinds beyond the product's five existed has no `moreField`.
 */
export function orderedQuestions(
  form: Pick<
    PublicForm,
    'textField' | 'selectField' | 'radioField' | 'checkField' | 'fileField' | 'fieldOrder'
  > &
    Partial<Pick<PublicForm, 'moreField'>>,
): Question[] {
  const all: Question[] = [
    ...form.textField.map((field) => ({ kind: 'text' as const, field })),
    ...form.selectField.map((field) => ({ kind: 'select' as const, field })),
    ...form.radioField.map((field) => ({ kind: 'radio' as const, field })),
    ...form.checkField.map((field) => ({ kind: 'check' as const, field })),
    ...form.fileField.map((field) => ({ kind: 'file' as const, field })),
    ...(form.moreField ?? []).map((field) => ({ kind: field.kind, field })),
  ];
  const byId = new Map(all.map((q) => [q.field._id, q]));
  const ordered = form.fieldOrder.flatMap(({ _id }) => {
    const question = byId.get(_id);
    byId.delete(_id);
    return question ? [question] : [];
  });
  return [...ordered, ...byId.values()];
}
