import { LRUCache } from 'lru-cache';
import { NOT_ON_FORM } from '#common/answer-limits.ts';
import { fieldsOf, type Form } from '#common/forms.ts';
import { answersSchemaFor, type Answers, type FileAnswer, type SubmissionBody } from '#common/submissions.ts';
import { truncateText } from '#common/unstorable-text.ts';
import { HttpError } from '../../../http/errors.ts';
import type { StoredAnswer } from '../repository.ts';

type Field = { _id: string; name: string };

/**
 * Answers the form's schema refused: the first problem as the message (the JSON API's 400), and every problem by
 * question id, for a page that shows each message at its question (submissions/no-script/routes.ts).
 */
export class AnswersError extends HttpError {
  constructor(
    message: string,
    readonly issues: Record<string, string>,
  ) {
    super(400, 'VALIDATION_FAILED', message);
  }
}
const invalid = (question: string, message: string) =>
  new HttpError(400, 'VALIDATION_FAILED', `${question}: ${message}`);

/**
 * Finds the question a key names: its id (our page) or, when unambiguous, its name (the original client,
 * docs/product.md).
 */
function resolve(fields: readonly Field[], key: string): Field {
  const byId = fields.find((f) => f._id === key);
  if (byId) return byId;
  const byName = fields.filter((f) => f.name === key);
  if (byName.length === 1 && byName[0]) return byName[0];
  throw invalid(key, NOT_ON_FORM);
}

type AnswersSchema = ReturnType<typeof answersSchemaFor>;
/** Schemas built for forms as they were, keyed by the questions themselves: an edited form gets a new one. */
const schemas = new LRUCache<string, AnswersSchema>({ max: 500 });
/** The submission writer keeps form objects in memory (never changed once read): most lookups end here. */
const schemaOfForm = new WeakMap<Form, AnswersSchema>();

/**
 * The form's answers schema. Building one costs far more than running it (zod compiles each object schema on
 * first use), so it is made once per version of the questions; the key is the questions' full definition, so a
 * changed question can never be checked by an old schema.
 */
function schemaOf(form: Form): AnswersSchema {
  const known = schemaOfForm.get(form);
  if (known) return known;
  // Kind by kind, not fieldsOf(form): a select and a checkbox question defined alike need different schemas.
  const key = JSON.stringify([
    form.textField,
    form.selectField,
    form.radioField,
    form.checkField,
    form.fileField,
  ]);
  const schema = schemas.get(key) ?? answersSchemaFor(form);
  schemas.set(key, schema);
  schemaOfForm.set(form, schema);
  return schema;
}

/**
 * The original client's body (per-kind maps) as answers keyed by question id, validated against the form as it is
 * now.
 */
export function readAnswers(form: Form, body: SubmissionBody): Answers {
  const answers: Answers = {};
  const put = (fields: readonly Field[], key: string, value: Answers[string]) => {
    const field = resolve(fields, key);
    if (field._id in answers) throw invalid(field.name, 'Answered twice');
    answers[field._id] = value;
  };
  for (const [key, value] of Object.entries(body.textObject ?? {})) put(form.textField, key, value);
  for (const [key, value] of Object.entries(body.selectedValues ?? {})) put(form.selectField, key, value);
  for (const [key, value] of Object.entries(body.selectedRadio ?? {})) put(form.radioField, key, value);
  for (const { name, values } of body.selectedCheckboxes ?? []) put(form.checkField, name, values);
  for (const [key, value] of Object.entries(body.fileObject ?? {})) put(form.fileField, key, value);

  const result = schemaOf(form).safeParse(answers);
  if (!result.success) {
    const issue = result.error.issues[0];
    const fieldId = String(issue?.path[0] ?? '');
    const question = fieldsOf(form).find((f) => f._id === fieldId)?.name ?? fieldId;
    const issues: Record<string, string> = {};
    for (const { path, message } of result.error.issues) issues[String(path[0] ?? '')] ??= message;
    throw new AnswersError(`${question}: ${issue?.message ?? 'Invalid answer'}`, issues);
  }
  return result.data as Answers;
}

export const fileAnswersOf = (form: Form, answers: Answers): { field: Field; answer: FileAnswer }[] =>
  form.fileField.flatMap((field) => {
    const answer = answers[field._id];
    return answer && typeof answer === 'object' && !Array.isArray(answer) ? [{ field, answer }] : [];
  });

/** Answers in the form's question order, each with the question's name as it is now. */
export function toStoredAnswers(
  form: Form,
  answers: Answers,
  uploadIdOf: (deleteId: string) => string,
): StoredAnswer[] {
  const names = new Map(fieldsOf(form).map((f) => [f._id, f.name]));
  return form.fieldOrder.flatMap(({ _id, kind }): StoredAnswer[] => {
    const value = answers[_id];
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return [];
    const name = names.get(_id) ?? '';
    if (typeof value === 'object' && !Array.isArray(value)) {
      return [{ fieldId: _id, kind, name, value: { uploadId: uploadIdOf(value.deleteId) } }];
    }
    return [{ fieldId: _id, kind, name, value }];
  });
}

/**
 * Whether `answers`, as read now, are the ones `stored` holds, question by question of `form` as it is now: files
 * aside (a page sent again uploads its files again), and questions deleted since left out, so a retry of the same
 * answers is the same whatever became of the form meanwhile.
 */
export function sameAnswers(form: Form, answers: Answers, stored: readonly StoredAnswer[]): boolean {
  const before = new Map(stored.map((a) => [a.fieldId, a.value]));
  return form.fieldOrder.every(({ _id, kind }) => {
    if (kind === 'file') return true;
    const now = answers[_id];
    const given =
      now === undefined || now === '' || (Array.isArray(now) && now.length === 0) ? undefined : now;
    return JSON.stringify(given) === JSON.stringify(before.get(_id));
  });
}

/** The respondent's first identifying answers (name, email, phone) for the owner's list. */
export function contactOf(form: Form, stored: readonly StoredAnswer[]): string {
  const identifying = new Set(
    form.textField.filter((f) => ['text', 'email', 'tel'].includes(f.type)).map((f) => f._id),
  );
  const texts = stored.filter((a) => a.kind === 'text' && typeof a.value === 'string');
  const picked = texts.filter((a) => identifying.has(a.fieldId)).slice(0, 2);
  const chosen = picked.length > 0 ? picked : texts.slice(0, 1);
  return chosen.map((a) => truncateText(String(a.value), 120)).join(' · ');
}
