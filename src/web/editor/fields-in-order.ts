import type { Form, Option, QuestionKind, TextType } from '#common/forms.ts';
import type { FileRules } from '#common/kinds/file-rules.ts';
import type { DateSettings } from '#common/kinds/simple-kinds.ts';
import type { Condition } from '#common/logic/conditions.ts';
import type { QuestionItem } from '#common/logic/items.ts';

export type EditorField = {
  _id: string;
  kind: QuestionKind;
  name: string;
  required: boolean;
  type?: TextType;
  options?: Option[];
  /** The help text under the question's title, when it has one. */
  help?: string;
  /** A file question's own rules. */
  rules?: FileRules;
  /** A date question's earliest and latest days. */
  dateRange?: DateSettings;
  /** When the customer sees this question. */
  condition?: Condition;
  /** The form's own item, sent back whole when the list is saved as items. */
  source?: QuestionItem;
};

/** The form's questions as one list in the owner's order (the API's per-kind arrays plus fieldOrder). */
export function fieldsInOrder(form: Form): EditorField[] {
  const byId = new Map<string, EditorField>();
  for (const f of form.textField)
    byId.set(f._id, {
      _id: f._id,
      kind: 'text',
      name: f.name,
      required: f.required,
      type: f.type,
      help: f.help,
      dateRange: f.dateRange,
    });
  for (const f of form.fileField)
    byId.set(f._id, {
      _id: f._id,
      kind: 'file',
      name: f.name,
      required: f.required,
      help: f.help,
      rules: f.rules,
    });
  for (const kind of ['select', 'radio', 'check'] as const) {
    for (const f of form[`${kind}Field`])
      byId.set(f._id, {
        _id: f._id,
        kind,
        name: f.name,
        required: f.required,
        options: f.options,
        help: f.help,
      });
  }
  // The kinds beyond the product's five keep their own item (its settings) as the source.
  for (const f of form.moreField ?? [])
    byId.set(f._id, {
      _id: f._id,
      kind: f.kind,
      name: f.name,
      required: f.required,
      help: f.help,
      source: f as QuestionItem,
    });
  return form.fieldOrder.flatMap(({ _id }) => byId.get(_id) ?? []);
}

export const KIND_LABELS: Record<QuestionKind, string> = {
  text: 'Text',
  select: 'Dropdown',
  radio: 'Radio buttons',
  check: 'Checkboxes',
  file: 'File upload',
  number: 'Number',
  rating: 'Rating',
  scale: 'Linear scale',
  statement: 'Statement',
  consent: 'Consent',
  time: 'Time',
  url: 'Web address',
  grid: 'Choice grid',
};

export const TEXT_TYPE_LABELS: Record<TextType, string> = {
  text: 'Short text',
  email: 'Email',
  password: 'Password',
  date: 'Date',
  tel: 'Phone',
  textarea: 'Paragraph (long text)',
};
