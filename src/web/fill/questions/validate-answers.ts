import type { PublicForm } from '#common/forms.ts';
import { answersSchemaFor } from '#common/submissions.ts';
import { answeredValues, type FieldErrors, type FileAnswers, type Values } from './questions.ts';

// The shared zod schema, and zod with it, loads when the customer first works with the form, not with the page
// (docs/decisions/012-customer-entry.md).

function collectErrors(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const id = String(issue.path[0] ?? '');
    if (id && !(id in errors)) errors[id] = issue.message;
  }
  return errors;
}

/** The page's own check, with the server's schema (answersSchemaFor); `withFiles` adds the file questions. */
export function validateAnswers(
  form: PublicForm,
  values: Values,
  files: FileAnswers = {},
  withFiles = false,
): FieldErrors {
  const schema = answersSchemaFor(withFiles ? form : { ...form, fileField: [] });
  const answers: Record<string, unknown> = answeredValues(form, values);
  if (withFiles) for (const f of form.fileField) if (files[f._id]?.length) answers[f._id] = files[f._id];
  const result = schema.safeParse(answers);
  return result.success ? {} : collectErrors(result.error.issues);
}
