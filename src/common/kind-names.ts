// The question kinds by name, without their schemas (question-schemas.ts): the customer's React page tells them
// apart at the first touch, which loads no zod.

export const FIELD_KINDS = ['text', 'select', 'radio', 'check', 'file'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
/**
 * The kinds beyond the product's five (docs/decisions/043-question-kinds.md): each carries its own `kind` and
 * `settings`, in the form's `moreField` list. Their answers travel as text, in the submit's `textObject`; a choice
 * grid's, the column chosen in each row, in its `gridObject`.
 */
export const MORE_KINDS = [
  'number',
  'rating',
  'scale',
  'statement',
  'consent',
  'time',
  'url',
  'grid',
] as const;
export type MoreKind = (typeof MORE_KINDS)[number];
export const QUESTION_KINDS = [...FIELD_KINDS, ...MORE_KINDS] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];
export const isMoreKind = (kind: string): kind is MoreKind =>
  (MORE_KINDS as readonly string[]).includes(kind);
