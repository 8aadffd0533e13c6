import { LRUCache } from 'lru-cache';
import { NOT_ON_FORM } from '#common/answer-limits.ts';
import { fieldsOf, type Form } from '#common/forms.ts';
import { asFileList } from '#common/kinds/file-rules.ts';
import { gridLines } from '#common/kinds/grid-kind.ts';
import { HIDDEN_KEY } from '#common/kinds/link-values.ts';
import { judgeAnswers } from '#common/logic/applies.ts';
import { pagesOf } from '#common/logic/items.ts';
import {
  answersSchemaFor,
  type Answers,
  type FileAnswer,
  type KeptAnswer,
  type SubmissionBody,
} from '#common/submissions.ts';
import { truncateText } from '#common/unstorable-text.ts';
import { HttpError } from '../../../http/errors.ts';
import type { StoredAnswer } from '../repository.ts';
import { judgeHidden } from './hidden-values.ts';

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
/** Said of an answer to a question that does not apply to the customer's earlier answers. */
export const NOT_APPLYING = 'This question does not apply to your other answers, so it takes no answer';
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
 * The form's answers schema, with the questions of `notRequired` optional (they do not apply to these answers).
 * Building one costs far more than running it (zod compiles each object schema on first use), so it is made once
 * per version of the questions; the key is the questions' full definition, so a changed question can never be
 * checked by an old schema.
 */
function schemaOf(form: Form, notRequired: ReadonlySet<string>): AnswersSchema {
  const known = notRequired.size === 0 ? schemaOfForm.get(form) : undefined;
  if (known) return known;
  const relax = <F extends { _id: string; required: boolean }>(fields: F[]) =>
    fields.map((f) => (notRequired.has(f._id) ? { ...f, required: false } : f));
  const questions = {
    textField: relax(form.textField),
    selectField: relax(form.selectField),
    radioField: relax(form.radioField),
    checkField: relax(form.checkField),
    fileField: relax(form.fileField),
    moreField: relax(form.moreField),
  };
  // Kind by kind, not fieldsOf(form): a select and a checkbox question defined alike need different schemas.
  const key = JSON.stringify(Object.values(questions));
  const schema = schemas.get(key) ?? answersSchemaFor(questions);
  schemas.set(key, schema);
  if (notRequired.size === 0) schemaOfForm.set(form, schema);
  return schema;
}

const pagesOfForms = new WeakMap<Form, ReturnType<typeof pagesOf>>();
/** The form's pages, worked out once per form object the writer keeps. */
function pagesOfForm(form: Form): ReturnType<typeof pagesOf> {
  const known = pagesOfForms.get(form);
  if (known) return known;
  const pages = pagesOf(form.items);
  pagesOfForms.set(form, pages);
  return pages;
}

/**
 * The answers as judged: those stored, the pages they went through, the questions they were not asked (on a page
 * they skipped, or whose own condition did not hold), and what the form no longer asks.
 */
export type Judged = {
  answers: Answers;
  path: string[];
  skipped: string[];
  keptAside: KeptAnswer[];
  /** The hidden fields the link filled, by name; null when none. */
  hidden: Record<string, string> | null;
};

/**
 * One item of a list kept aside, as text: an option as it is, a file by its name. A lenient body's keys the form no
 * longer asks are not checked against any question, so anything else is kept as its JSON text.
 */
function keptItem(item: unknown): string {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object' && 'deleteId' in item) {
    const file = item as Partial<FileAnswer>;
    return String(file.originalName ?? file.name ?? 'a file');
  }
  return JSON.stringify(item) ?? '';
}

const keptValue = (value: Answers[string]): string | string[] =>
  value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : Array.isArray(value)
        ? value.map((v: unknown) => keptItem(v))
        : gridLines(value);

/**
 * The original client's body (per-kind maps) as answers keyed by question id, judged against the form as it is
 * now (docs/decisions/042-pages-and-conditions.md): a required question is required only where it applies to the
 * answers, and an answer to a question that does not apply is refused, naming it. A body from an older version of
 * the form (`version`) is judged leniently: nothing is required, and answers the form no longer asks (a question
 * that does not apply, or is gone) are kept aside rather than refused.
 */
export function judgeSubmission(form: Form, body: SubmissionBody): Judged {
  const lenient = body.version !== undefined && body.version !== form.version;
  const answers: Answers = {};
  const keptAside: KeptAnswer[] = [];
  const put = (fields: readonly Field[], key: string, value: Answers[string]) => {
    let field: Field;
    try {
      field = resolve(fields, key);
    } catch (error) {
      if (!lenient) throw error;
      keptAside.push({ fieldId: key, name: key, value: keptValue(value) });
      return;
    }
    if (field._id in answers) throw invalid(field.name, 'Answered twice');
    answers[field._id] = value;
  };
  // The kinds beyond the product's five answer in text too (docs/api.md).
  const textFields = [...form.textField, ...form.moreField];
  for (const [key, value] of Object.entries(body.textObject ?? {})) put(textFields, key, value);
  for (const [key, value] of Object.entries(body.selectedValues ?? {})) put(form.selectField, key, value);
  for (const [key, value] of Object.entries(body.selectedRadio ?? {})) put(form.radioField, key, value);
  for (const { name, values } of body.selectedCheckboxes ?? []) put(form.checkField, name, values);
  for (const [key, value] of Object.entries(body.fileObject ?? {}))
    put(form.fileField, key, asFileList(value));
  const grids = form.moreField.filter((f) => f.kind === 'grid');
  for (const [key, value] of Object.entries(body.gridObject ?? {})) put(grids, key, value as Answers[string]);

  // The link's hidden fields, checked first: conditions may test them (`hidden:<name>`).
  const hidden = judgeHidden(form, body.hidden ?? {}, lenient);
  const linked = Object.fromEntries(Object.entries(hidden ?? {}).map(([name, v]) => [HIDDEN_KEY + name, v]));
  const judged = judgeAnswers(pagesOfForm(form), { ...answers, ...linked });
  const nameOf = (id: string) => fieldsOf(form).find((f) => f._id === id)?.name ?? id;
  if (judged.notApplying.length > 0 && !lenient) {
    const issues = Object.fromEntries(judged.notApplying.map((id) => [id, NOT_APPLYING]));
    throw new AnswersError(`${nameOf(judged.notApplying[0] ?? '')}: ${NOT_APPLYING}`, issues);
  }
  for (const id of judged.notApplying) {
    keptAside.push({ fieldId: id, name: nameOf(id), value: keptValue(answers[id]) });
    delete answers[id];
  }
  const required = fieldsOf(form).filter((f) => f.required);
  const notRequired = new Set(
    required.filter((f) => lenient || !judged.applicable.questions.has(f._id)).map((f) => f._id),
  );
  const result = schemaOf(form, notRequired).safeParse(answers);
  if (!result.success) {
    const issue = result.error.issues[0];
    const question = nameOf(String(issue?.path[0] ?? ''));
    const issues: Record<string, string> = {};
    for (const { path, message } of result.error.issues) issues[String(path[0] ?? '')] ??= message;
    throw new AnswersError(`${question}: ${issue?.message ?? 'Invalid answer'}`, issues);
  }
  const skipped = fieldsOf(form)
    .map((f) => f._id)
    .filter((id) => !judged.applicable.questions.has(id));
  return { answers: result.data as Answers, path: judged.applicable.pages, skipped, keptAside, hidden };
}

/** The answers of `body`, judged strictly (a first step's answers, checked before the files step is drawn). */
export const readAnswers = (form: Form, body: SubmissionBody): Answers => judgeSubmission(form, body).answers;

/** Every file the answers give, each with its question. */
export const fileAnswersOf = (
  form: Form,
  answers: Answers,
): { field: Form['fileField'][number]; answer: FileAnswer }[] =>
  form.fileField.flatMap((field) => {
    const files = answers[field._id];
    return Array.isArray(files) ? (files as FileAnswer[]).map((answer) => ({ field, answer })) : [];
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
    if (kind === 'file' && Array.isArray(value)) {
      const ids = (value as FileAnswer[]).map((f) => uploadIdOf(f.deleteId));
      // One file as the product always stored it; several as a list.
      const stored: StoredAnswer['value'] =
        ids.length === 1 ? { uploadId: ids[0] ?? '' } : { uploadIds: ids };
      return [{ fieldId: _id, kind, name, value: stored }];
    }
    if (kind === 'file') return [];
    return [{ fieldId: _id, kind, name, value: value as StoredAnswer['value'] }];
  });
}

/** An answer as text to compare: a grid's rows sorted, as the database keeps an object's keys in an order of its own. */
const canonical = (value: unknown) =>
  JSON.stringify(
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      : value,
  );

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
    return canonical(given) === canonical(before.get(_id));
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
