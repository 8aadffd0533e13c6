import type { PublicForm } from '#common/forms.ts';
import type { Draft } from './saved-fill.ts';

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

/** The saved answers for `formId`; answers saved for another form start over. */
export async function loadDraft(formId: string): Promise<Draft> {
  if (localStorage.getItem(KEYS.draft) === null) return emptyDraft(formId);
  const { readDraft } = await import('./saved-fill.ts');
  return readDraft(formId);
}

export const saveDraft = (draft: Draft): void => localStorage.setItem(KEYS.draft, JSON.stringify(draft));

export function finishDraft(submissionId: string): void {
  localStorage.setItem(KEYS.submissionId, submissionId);
  localStorage.removeItem(KEYS.draft);
}
