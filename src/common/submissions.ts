import { z } from 'zod';
import { HONEYPOT_FIELD, LONG_TEXT_ANSWER_MAX, NOT_ON_FORM, TEXT_ANSWER_MAX } from './answer-limits.ts';
import { QUESTION_KINDS, type Form } from './forms.ts';
import { FILES_MAX, maxFilesOf } from './kinds/file-rules.ts';
import type { GridAnswer } from './kinds/grid-kind.ts';
import { HIDDEN_FIELDS_MAX, HIDDEN_NAME_MAX } from './kinds/link-values.ts';
import { moreAnswerSchema } from './kinds/more-kinds.ts';
import { dateAnswerSchema, isRealDate } from './kinds/simple-kinds.ts';
import { PHONE_PATTERN } from './phone.ts';
import { endsAfterStart, OwnerZoneField, ResponseFilterFields } from './response-filter.ts';

/**
 * POST /api/profile answer (docs/product.md, Entities: Upload). `_id` is also the secret that deletes or
 * claims it.
 */
export const UploadResponseSchema = z.object({
  file: z.string(),
  _id: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

/** One file slot of a submission, a `fileObject` entry (docs/product.md, Entities: Submission). */
export const FileAnswerSchema = z.object({
  deleteId: z.string().min(1).max(100),
  name: z.string().max(500).optional(),
  value: z.string().max(2000).optional(),
  originalName: z.string().max(500).optional(),
});
export type FileAnswer = z.infer<typeof FileAnswerSchema>;

/**
 * A file question's answer as sent: one file (the product's own shape) or a list of them, for a question that takes
 * several (its rules' `maxFiles`).
 */
export const SentFilesSchema = z.union([FileAnswerSchema, z.array(FileAnswerSchema).max(FILES_MAX)]);

/**
 * POST /api/forms/{ownerId} (docs/api.md, Customers). Map keys are question ids (our page) or question names
 * (the original client, docs/product.md). The form's title, colours and date are taken from the form on the server,
 * not from the body.
 */
export const SubmissionBodySchema = z.object({
  formStructureId: z.uuid({ error: 'Not a valid form id' }),
  // Each answer's length is checked against its question's kind (answersSchemaFor), so a refusal names the question
  // rather than the key the client used; the route's body limit bounds the whole body.
  textObject: z.record(z.string(), z.string()).default({}),
  selectedValues: z.record(z.string(), z.string().max(500)).default({}),
  selectedRadio: z.record(z.string(), z.string().max(500)).default({}),
  selectedCheckboxes: z
    .array(z.object({ name: z.string(), values: z.array(z.string().max(500)).max(100) }))
    .max(200)
    .default([]),
  fileObject: z.record(z.string(), SentFilesSchema).default({}),
  /** A choice grid's answer by question: the chosen column by row (docs/api.md). */
  // Each answer's shape is checked against its grid (gridAnswerSchema), so a refusal names the question.
  gridObject: z.record(z.string(), z.unknown()).default({}),
  /** The hidden fields the form's link filled, by name (the form's `hiddenFields`). */
  hidden: z
    .record(z.string().max(HIDDEN_NAME_MAX), z.string())
    .refine((h) => Object.keys(h).length <= HIDDEN_FIELDS_MAX, `At most ${HIDDEN_FIELDS_MAX} hidden fields`)
    .optional(),
  formTitle: z.unknown().optional(),
  Date: z.unknown().optional(),
  color: z.unknown().optional(),
  border: z.unknown().optional(),
  description: z.unknown().optional(),
  [HONEYPOT_FIELD]: z.string().max(1000).optional(),
  /**
   * The version of the form the page was drawn from (the form's `version`). Absent, or the current one: the answers
   * are judged strictly. An older one: leniently, and what the form no longer asks is kept aside, never refused
   * (docs/decisions/042-pages-and-conditions.md).
   */
  version: z.number().int().min(1).optional(),
});
export type SubmissionBody = z.input<typeof SubmissionBodySchema>;

export const SubmitResponseSchema = z.object({ _id: z.string() });

/**
 * Answers keyed by question id: text, a chosen option, a list of options, the uploaded files, or a grid's chosen
 * column by row.
 */
export type Answers = Record<string, string | string[] | FileAnswer[] | GridAnswer | undefined>;

function textSchema(
  type: Form['textField'][number]['type'],
  required: boolean,
  dateRange?: Form['textField'][number]['dateRange'],
) {
  if (type === 'date' && dateRange) return dateAnswerSchema(dateRange, required);
  const max = type === 'textarea' ? LONG_TEXT_ANSWER_MAX : TEXT_ANSWER_MAX;
  const base = z.string().trim().max(max, `Keep it under ${max} characters`);
  const filled = (() => {
    switch (type) {
      case 'email':
        return base.pipe(z.email('Enter a valid email address'));
      case 'tel':
        return base
          .regex(PHONE_PATTERN, 'Enter a valid phone number')
          .refine((v) => v.replace(/\D/g, '').length >= 5, 'Enter a valid phone number');
      case 'date':
        return base.refine(isRealDate, 'Enter a valid date');
      default:
        return base.min(1, 'This question is required');
    }
  })();
  return required
    ? z.string({ error: 'This question is required' }).trim().min(1, 'This question is required').pipe(filled)
    : z.union([z.literal('').transform(() => undefined), filled]).optional();
}

/**
 * One zod schema per form, used by the customer's page before it sends and by the server when it receives, so both
 * apply the same rules: required answers present, options among the options, email, phone and date formats, and
 * nothing that is not a question of the form.
 */
export function answersSchemaFor(
  form: Pick<Form, 'textField' | 'selectField' | 'radioField' | 'checkField' | 'fileField'> &
    Partial<Pick<Form, 'moreField'>>,
) {
  const shape: Record<string, z.ZodType> = {};
  for (const f of form.textField) shape[f._id] = textSchema(f.type, f.required, f.dateRange);
  for (const f of [...form.selectField, ...form.radioField]) {
    const values = f.options.map((o) => o.value);
    const one = z.string().refine((v) => values.includes(v), 'Choose one of the options');
    shape[f._id] = f.required
      ? z.string({ error: 'Choose an option' }).min(1, 'Choose an option').pipe(one)
      : one.optional();
  }
  for (const f of form.checkField) {
    const values = f.options.map((o) => o.value);
    const list = z
      .array(
        z.string().refine((v) => values.includes(v), 'Choose among the options'),
        { error: 'Tick at least one option' },
      )
      .refine((l) => new Set(l).size === l.length, 'Each option can be ticked once');
    shape[f._id] = f.required ? list.min(1, 'Tick at least one option') : list.optional();
  }
  for (const f of form.fileField) {
    const most = maxFilesOf(f.rules);
    const list = z
      .array(FileAnswerSchema, { error: 'Upload a file' })
      .max(most, most === 1 ? 'Upload one file' : `Upload at most ${most} files`)
      .refine((l) => new Set(l.map((a) => a.deleteId)).size === l.length, 'Each file can be given once');
    shape[f._id] = f.required ? list.min(1, 'Upload a file') : list.optional();
  }
  for (const f of form.moreField ?? []) shape[f._id] = moreAnswerSchema(f, f.required);
  return z.strictObject(shape, { error: NOT_ON_FORM });
}

const FileViewSchema = z.object({
  url: z.string(),
  downloadUrl: z.string(),
  originalName: z.string(),
  mimeType: z.string(),
  size: z.number(),
});
export type FileView = z.infer<typeof FileViewSchema>;

export const SubmissionAnswerSchema = z.object({
  fieldId: z.string(),
  kind: z.enum(QUESTION_KINDS),
  name: z.string(),
  /** The answer to a date question (still on the form): a day written YYYY-MM-DD. */
  isDate: z.boolean(),
  /** Text or a chosen option, the ticked options, a grid's chosen column by row; null for a file. */
  value: z.union([z.string(), z.array(z.string()), z.record(z.string(), z.string())]).nullable(),
  /** A rating's highest value (the question as it is now), so its answer reads "4 of 5"; only on a rating. */
  outOf: z.number().int().optional(),
  /** A file question's first file (the one file of a question that takes one); null for any other answer. */
  file: FileViewSchema.nullable(),
  /** A file question's files, in the order given; only on a file question's answer. */
  files: z.array(FileViewSchema).optional(),
});
export type SubmissionAnswer = z.infer<typeof SubmissionAnswerSchema>;

/**
 * An answer the form no longer asks, kept with the response it came with: the question's id (or the name the
 * client used) and name, and the answer as text (a file by its name).
 */
export const KeptAnswerSchema = z.object({
  fieldId: z.string(),
  name: z.string(),
  value: z.union([z.string(), z.array(z.string())]),
});
export type KeptAnswer = z.infer<typeof KeptAnswerSchema>;

/**
 * One submission as the owner reads it: the per-kind maps (docs/product.md, Entities: Submission), plus
 * `answers` in question order and `contact`.
 */
export const SubmissionSchema = z.object({
  _id: z.string(),
  formTitle: z.string(),
  formStructureId: z.string(),
  Date: z.string(),
  createdAt: z.string(),
  color: z.string(),
  border: z.string(),
  description: z.string(),
  textObject: z.record(z.string(), z.string()),
  selectedValues: z.record(z.string(), z.string()),
  selectedRadio: z.record(z.string(), z.string()),
  selectedCheckboxes: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
  fileObject: z.record(
    z.string(),
    z.object({ name: z.string(), value: z.string(), deleteId: z.string(), originalName: z.string() }),
  ),
  /** The choice grids' answers by question name, as the submit's `gridObject`; only when there are any. */
  gridObject: z.record(z.string(), z.record(z.string(), z.string())).optional(),
  answers: z.array(SubmissionAnswerSchema),
  contact: z.string(),
  /** Answers sent from an older version of the form that it no longer asks; only when there are any. */
  keptAside: z.array(KeptAnswerSchema).optional(),
  /** The ids of the pages the response went through (docs/decisions/042-pages-and-conditions.md). */
  path: z.array(z.string()).optional(),
  /** The hidden fields the form's link filled, by name; only when there are any. */
  hidden: z.record(z.string(), z.string()).optional(),
});
export type Submission = z.infer<typeof SubmissionSchema>;

export const SubmissionListItemSchema = z.object({
  _id: z.string(),
  formStructureId: z.string(),
  contact: z.string(),
  Date: z.string(),
  createdAt: z.string(),
  /** Each answer as one short line of text by question id (a file by its name), for the table's columns. */
  answers: z.record(z.string(), z.string()),
});
export type SubmissionListItem = z.infer<typeof SubmissionListItemSchema>;

export const SubmissionPageSchema = z.object({
  formTitle: z.string(),
  /** The form's questions in order: the columns the owner may show. */
  questions: z.array(
    z.object({
      _id: z.string(),
      name: z.string(),
      /** A date question: its answers are days written YYYY-MM-DD. */
      isDate: z.boolean(),
    }),
  ),
  total: z.number(),
  items: z.array(SubmissionListItemSchema),
  /** Pass as `after` for older rows; null on the last page. */
  nextCursor: z.string().nullable(),
  /** Pass as `before` for newer rows; null on the first page. */
  prevCursor: z.string().nullable(),
});
export type SubmissionPage = z.infer<typeof SubmissionPageSchema>;

export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25),
  after: z.string().max(200).optional(),
  before: z.string().max(200).optional(),
  from: z.enum(['newest', 'oldest']).default('newest'),
});

/** A form's list of responses: a page, of those the filter lets through. */
export const FormPageQuerySchema = PageQuerySchema.extend({
  ...ResponseFilterFields,
  ...OwnerZoneField,
  /** The list's order by date: newest first (the default) or oldest first. */
  order: z.enum(['newest', 'oldest']).default('newest'),
}).refine(...endsAfterStart);

export const FormSummarySchema = z.object({
  _id: z.string(),
  formTitle: z.string(),
  count: z.number(),
  /** The 'Date' of the newest response; null when there is none. */
  Date: z.string().nullable(),
  latestAt: z.string().nullable(),
});
export type FormSummary = z.infer<typeof FormSummarySchema>;
