import { z } from 'zod';
import { PublicFormSchema, type PublicForm } from '#common/forms.ts';
import { FileAnswerSchema } from '#common/submissions.ts';

/**
 * The customer's local storage (spec §3). The owner id goes under `formOwnerId`, not the spec's `id`, because `id`
 * is the signed-in owner's session and an owner testing their own link must stay signed in.
 */
const KEYS = {
  formId: 'fid',
  ownerId: 'formOwnerId',
  form: 'customerForm',
  draft: 'userSubmissionData',
  submissionId: 'userFormId',
} as const;

/** The answers between steps, the honeypot, and the key of a submission that may not have arrived. */
const DraftSchema = z.object({
  formId: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  files: z.record(z.string(), FileAnswerSchema),
  website: z.string(),
  idempotencyKey: z.string().nullable(),
});
export type Draft = z.infer<typeof DraftSchema>;

export type FillContext = { form: PublicForm; ownerId: string };

function readJson(key: string): unknown {
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

/** The form this browser is filling in, or null when the customer link was never opened here. */
export function readContext(): FillContext | null {
  const formId = localStorage.getItem(KEYS.formId);
  const ownerId = localStorage.getItem(KEYS.ownerId);
  const form = PublicFormSchema.safeParse(readJson(KEYS.form));
  if (!formId || !ownerId || !form.success || form.data._id !== formId) return null;
  return { form: form.data, ownerId };
}

export const emptyDraft = (formId: string): Draft => ({
  formId,
  values: {},
  files: {},
  website: '',
  idempotencyKey: null,
});

/** The saved answers for `formId`; answers saved for another form start over. */
export function readDraft(formId: string): Draft {
  const draft = DraftSchema.safeParse(readJson(KEYS.draft));
  return draft.success && draft.data.formId === formId ? draft.data : emptyDraft(formId);
}

export const saveDraft = (draft: Draft): void => localStorage.setItem(KEYS.draft, JSON.stringify(draft));

export function finishDraft(submissionId: string): void {
  localStorage.setItem(KEYS.submissionId, submissionId);
  localStorage.removeItem(KEYS.draft);
}
