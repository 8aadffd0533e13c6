import { z } from 'zod';
import { PublicFormSchema, type PublicForm } from '#common/forms.ts';
import { FILES_MAX } from '#common/kinds/file-rules.ts';
import { FileAnswerSchema } from '#common/submissions.ts';
import { emptyDraft, KEYS, readJson, type Draft } from './fill-storage.ts';

const DraftSchema: z.ZodType<Draft> = z.object({
  formId: z.string(),
  values: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.record(z.string(), z.string())])),
  // A draft saved before a question could take several files holds one by question: read as a list of one.
  files: z.record(
    z.string(),
    z.union([FileAnswerSchema.transform((f) => [f]), z.array(FileAnswerSchema).max(FILES_MAX)]),
  ),
  website: z.string(),
  idempotencyKey: z.string().nullable(),
  hidden: z.record(z.string(), z.string()).optional(),
});

export type FillContext = { form: PublicForm; ownerId: string };

/** The form this browser is filling in, or null when the customer link was never opened here. */
export function readContext(): FillContext | null {
  const formId = localStorage.getItem(KEYS.formId);
  const ownerId = localStorage.getItem(KEYS.ownerId);
  const form = PublicFormSchema.safeParse(readJson(KEYS.form));
  if (!formId || !ownerId || !form.success || form.data._id !== formId) return null;
  return { form: form.data, ownerId };
}

/** The saved answers for `formId`; answers saved for another form start over. */
export function readDraft(formId: string): Draft {
  const draft = DraftSchema.safeParse(readJson(KEYS.draft));
  return draft.success && draft.data.formId === formId ? draft.data : emptyDraft(formId);
}
