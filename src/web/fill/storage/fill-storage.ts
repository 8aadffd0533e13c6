import type { PublicForm } from '#common/forms.ts';
import type { FileAnswer } from '#common/submissions.ts';
import type { Values } from '../questions/questions.ts';

/**
 * The customer's local storage (docs/product.md, Browser storage). The owner id goes under `formOwnerId`, not
 * `id`, because `id` is the signed-in owner's session and an owner testing their own link must stay signed
 * in. Reading it back is checked with zod in saved-fill.ts, which loads only when there is something to read.
 */
export const KEYS = {
  formId: 'fid',
  ownerId: 'formOwnerId',
  form: 'customerForm',
  draft: 'userSubmissionData',
  submissionId: 'userFormId',
} as const;

/**
 * The answers between steps, the honeypot, and the key of a submission that may not have arrived. Read back through
 * saved-fill.ts's schema, which checks this shape.
 */
export type Draft = {
  formId: string;
  values: Values;
  /** The files given, by file question, in the order given. */
  files: Record<string, FileAnswer[]>;
  website: string;
  idempotencyKey: string | null;
  /** The hidden fields the form's link filled, by name, sent with the answers (docs/api.md). */
  hidden?: Record<string, string>;
};

export function readJson(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

export function saveContext(form: PublicForm, ownerId: string): void {
  localStorage.setItem(KEYS.formId, form._id);
  localStorage.setItem(KEYS.ownerId, ownerId);
  localStorage.setItem(KEYS.form, JSON.stringify(form));
}

export const emptyDraft = (formId: string): Draft => ({
  formId,
  values: {},
  files: {},
  website: '',
  idempotencyKey: null,
});

/** Whether answers for `formId` are saved on this device (read without zod: it only decides when React starts). */
export function hasDraftFor(formId: string): boolean {
  const draft = readJson(KEYS.draft);
  return typeof draft === 'object' && draft !== null && 'formId' in draft && draft.formId === formId;
}

export const saveDraft = (draft: Draft): void => localStorage.setItem(KEYS.draft, JSON.stringify(draft));

export function finishDraft(submissionId: string): void {
  localStorage.setItem(KEYS.submissionId, submissionId);
  localStorage.removeItem(KEYS.draft);
}
