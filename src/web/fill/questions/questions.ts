import { HONEYPOT_FIELD } from '#common/answer-limits.ts';
import type { PublicForm } from '#common/forms.ts';
import { isMoreKind } from '#common/kind-names.ts';
import { isGridAnswered, type GridAnswer } from '#common/kinds/grid-answers.ts';
import { orderedQuestions, type Question } from '#common/question-order.ts';
import type { FileAnswer, SubmissionBody } from '#common/submissions.ts';

/** One answer as the page holds it: text or a chosen option, the ticked options, a grid's column by row. */
export type Value = string | string[] | GridAnswer;
/** What the customer has typed or picked, keyed by question id. */
export type Values = Record<string, Value>;
/** The files given, by file question. */
export type FileAnswers = Record<string, FileAnswer[]>;
export type FieldErrors = Record<string, string>;
/** Errors a later step sends back to the questions (/preview): the server named one of that page's questions. */
/** What the files step leaves for step 1: answers to fix there, or that its Back was used (`back`). */
export type PreviewState = { errors?: FieldErrors; back?: boolean } | null;

const isEmpty = (value: Value | undefined) =>
  value === undefined ||
  (typeof value === 'string'
    ? value.trim() === ''
    : Array.isArray(value)
      ? value.length === 0
      : !isGridAnswered(value));

/** The answers the current form still asks for, without blanks (the server's schema is strict). */
export function answeredValues(form: PublicForm, values: Values): Values {
  const current: Values = {};
  for (const q of orderedQuestions(form)) {
    const value = values[q.field._id];
    if (q.kind !== 'file' && value !== undefined && !isEmpty(value)) current[q.field._id] = value;
  }
  return current;
}

type AnswerMaps =
  'textObject' | 'selectedValues' | 'selectedRadio' | 'selectedCheckboxes' | 'fileObject' | 'gridObject';

/** The POST /api/forms/{ownerId} body, keyed by question id (docs/api.md, Customers). */
export function submissionBody(
  form: PublicForm,
  values: Values,
  files: FileAnswers,
  honeypot: string,
  hidden: Readonly<Record<string, string>> = {},
) {
  const answered = answeredValues(form, values);
  const body: SubmissionBody & Required<Pick<SubmissionBody, AnswerMaps>> = {
    formStructureId: form._id,
    textObject: {},
    selectedValues: {},
    selectedRadio: {},
    selectedCheckboxes: [],
    fileObject: {},
    gridObject: {},
    [HONEYPOT_FIELD]: honeypot,
  };
  for (const q of orderedQuestions(form)) {
    const id = q.field._id;
    const value = answered[id];
    const given = files[id] ?? [];
    if (q.kind === 'file' && given.length > 0)
      body.fileObject[id] = given.map((file) => ({ ...file, name: q.field.name }));
    if (q.kind === 'check' && Array.isArray(value)) body.selectedCheckboxes.push({ name: id, values: value });
    if (q.kind === 'grid' && value && typeof value === 'object' && !Array.isArray(value))
      body.gridObject[id] = Object.fromEntries(Object.entries(value).filter(([, column]) => column !== ''));
    if (typeof value !== 'string') continue;
    // The kinds beyond the product's five answer in text too (docs/api.md).
    if (q.kind === 'text' || isMoreKind(q.kind)) body.textObject[id] = value.trim();
    if (q.kind === 'select') body.selectedValues[id] = value;
    if (q.kind === 'radio') body.selectedRadio[id] = value;
  }
  // The hidden fields the link filled, those the form still declares.
  const declared = Object.entries(hidden).filter(([name]) => form.hiddenFields?.includes(name));
  if (declared.length > 0) body.hidden = Object.fromEntries(declared);
  return body;
}

/**
 * A 400 names its question ("Travel date: Enter a valid date"). Finds that question, by name or by id, preferring
 * the longest match so "Phone" does not claim "Phone (work): …".
 */
export function questionOfMessage(
  form: PublicForm,
  message: string,
): { question: Question; detail: string } | null {
  let best: { question: Question; detail: string; length: number } | null = null;
  for (const question of orderedQuestions(form)) {
    for (const key of [question.field.name, question.field._id]) {
      const prefix = `${key}: `;
      if (message.startsWith(prefix) && (!best || prefix.length > best.length)) {
        best = { question, detail: message.slice(prefix.length), length: prefix.length };
      }
    }
  }
  return best && { question: best.question, detail: best.detail };
}

export const hasPasswordQuestion = (form: PublicForm) => form.textField.some((f) => f.type === 'password');
