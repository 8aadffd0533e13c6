import { z } from 'zod';
import { dateTimeFormatIn } from './date-time-format.ts';
import { FormSettingsSchema } from './form-settings.ts';
import { HiddenFieldsSchema } from './kinds/link-values.ts';
import { ItemListSchema } from './logic/item-list.ts';
import { FormItemSchema } from './logic/items.ts';
import {
  ChoiceFieldSchema,
  FIELDS_PER_FORM_MAX,
  OPTIONS_PER_FIELD_MAX,
  FileFieldSchema,
  FileRulesSchema,
  ConsentFieldSchema,
  MoreFieldSchema,
  NumberFieldSchema,
  QUESTION_KINDS,
  RatingFieldSchema,
  ScaleFieldSchema,
  StatementFieldSchema,
  TimeFieldSchema,
  UrlFieldSchema,
  GridFieldSchema,
  TEXT_TYPES,
  TextFieldSchema,
  type ChoiceField,
  type FileField,
  type MoreField,
  type TextField,
} from './question-schemas.ts';
import {
  DescriptionSchema,
  FieldNameSchema,
  FormTitleSchema,
  HexColorSchema,
  OptionValueSchema,
} from './text-schemas.ts';

export * from './question-schemas.ts';
export * from './text-schemas.ts';

/** Field kind ids of the add-field call (docs/product.md, Limits and constants). */
export const FIELD_KIND_IDS = { 1: 'text', 2: 'select', 3: 'radio', 4: 'check', 5: 'file' } as const;
/** The add-field call's ids of the kinds beyond the product's five (docs/api.md). */
export const MORE_KIND_IDS = {
  6: 'number',
  7: 'rating',
  8: 'scale',
  9: 'statement',
  10: 'consent',
  11: 'time',
  12: 'url',
  13: 'grid',
} as const;

/**
 * The form (docs/product.md, Entities: Form): the per-kind arrays, plus `fieldOrder`: one ordered list across
 * kinds, which the per-kind arrays lose.
 */
export const FormSchema = z.object({
  _id: z.string(),
  ownerIdAsStructureId: z.string(),
  formTitle: z.string(),
  description: z.string(),
  color: z.string(),
  border: z.string(),
  Date: z.string(),
  /** When it was made, as an instant: what the owner's pages show on their own clock. */
  createdAt: z.string(),
  textField: z.array(TextFieldSchema),
  selectField: z.array(ChoiceFieldSchema),
  radioField: z.array(ChoiceFieldSchema),
  checkField: z.array(ChoiceFieldSchema),
  fileField: z.array(FileFieldSchema),
  /** The questions of the kinds beyond those five (number, rating, …), each with its `kind` and `settings`. */
  moreField: z.array(MoreFieldSchema),
  fieldOrder: z.array(z.object({ _id: z.string(), kind: z.enum(QUESTION_KINDS) })),
  /**
   * The form's content as one ordered list: its questions and page breaks, each with its condition
   * (docs/decisions/042-pages-and-conditions.md). The arrays and `fieldOrder` above are derived from it.
   */
  items: z.array(FormItemSchema),
  /** Raised by every change to the items: a save sends the one it started from, a submit the one its page drew. */
  version: z.number().int(),
  /** False once the owner closes the form: its link then says so and it takes no submissions or uploads. */
  acceptingResponses: z.boolean(),
  /** Schedule, limit and messages (issue 12): PUT /api/formSettings/{fid} changes them. */
  settings: FormSettingsSchema,
  /** The hidden fields the form's link may fill (`?ref=…`), by name: never shown, kept with each response. */
  hiddenFields: z.array(z.string()),
  responseCount: z.number().int(),
});
export type Form = z.infer<typeof FormSchema>;

/** Every question of the form, kind by kind; `fieldOrder` gives the order the page shows them in. */
export const fieldsOf = (
  form: Pick<Form, 'textField' | 'selectField' | 'radioField' | 'checkField' | 'fileField'> &
    Partial<Pick<Form, 'moreField'>>,
): (TextField | ChoiceField | FileField | MoreField)[] => [
  ...form.textField,
  ...form.selectField,
  ...form.radioField,
  ...form.checkField,
  ...form.fileField,
  ...(form.moreField ?? []),
];

/** A form's question lists before it has any question: fresh lists, for the caller to fill. */
export const noQuestions = (): Pick<
  Form,
  'textField' | 'selectField' | 'radioField' | 'checkField' | 'fileField' | 'moreField' | 'fieldOrder'
> => ({
  textField: [],
  selectField: [],
  radioField: [],
  checkField: [],
  fileField: [],
  moreField: [],
  fieldOrder: [],
});

/** Options of one field: blanks ignored by the editor, duplicates refused ('Value already exists!'). */
export const OptionListSchema = z
  .array(z.object({ value: OptionValueSchema }), { error: 'Options must be a list' })
  .min(1, 'Add at least one option')
  .max(OPTIONS_PER_FIELD_MAX, `A question can have at most ${OPTIONS_PER_FIELD_MAX} options`)
  .refine((options) => new Set(options.map((o) => o.value)).size === options.length, 'Value already exists!');

export const DUPLICATE_OPTION_MESSAGE = 'Value already exists!';

/** Adds `value` to `existing` unless blank; reports a duplicate the way the original editor does (docs/product.md). */
export function addOption(
  existing: readonly string[],
  value: string,
): { ok: true; options: string[] } | { ok: false; reason: 'blank' | 'duplicate' | 'too-many' } {
  const trimmed = value.trim();
  if (trimmed === '') return { ok: false, reason: 'blank' };
  if (existing.includes(trimmed)) return { ok: false, reason: 'duplicate' };
  if (existing.length >= OPTIONS_PER_FIELD_MAX) return { ok: false, reason: 'too-many' };
  return { ok: true, options: [...existing, trimmed] };
}

/**
 * The API's `Date`: 'date, time' in en-US, in the configured zone (docs/product.md, Limits and constants).
 */
const SPEC_DATE: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
};
/** `date.toLocaleString('en-US', { timeZone })`, with the formatter made once per time zone (it is costly). */
export const formatSpecDate = (date: Date, timeZone: string): string =>
  dateTimeFormatIn(SPEC_DATE, timeZone).format(date);

export const TEMPLATE_IDS = ['blank', 'contact', 'travel', 'event'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

const ignored = z.unknown().optional();

/** POST /api/v1/length. The owner always comes from the token; the original client also sends it and a Date. */
export const CreateFormBodySchema = z.object({
  template: z.enum(TEMPLATE_IDS, { error: 'Unknown template' }).default('blank'),
  formTitle: FormTitleSchema.optional(),
  description: DescriptionSchema.optional(),
  color: HexColorSchema.optional(),
  border: HexColorSchema.optional(),
  ownerIdAsStructureId: ignored,
  Date: ignored,
});
export type CreateFormBody = z.input<typeof CreateFormBodySchema>;

/** PUT /api/updateFormEntry/{fid}: one or more of the four form properties; empty values are refused. */
export const UpdateFormBodySchema = z
  .object({
    formTitle: FormTitleSchema.optional(),
    description: DescriptionSchema.optional(),
    color: HexColorSchema.optional(),
    border: HexColorSchema.optional(),
    acceptingResponses: z.boolean({ error: 'acceptingResponses must be true or false' }).optional(),
    /** The hidden fields' names, all of them: the list replaces the form's. */
    hiddenFields: HiddenFieldsSchema.optional(),
  })
  .refine(
    (body) => Object.values(body).some((v) => v !== undefined),
    'Send formTitle, description, color, border, acceptingResponses or hiddenFields',
  );
export type UpdateFormBody = z.input<typeof UpdateFormBodySchema>;

export type { AddFieldBody, RenameFieldBody, UpdateQuestionBody } from './field-calls.ts';

export const FormParamsSchema = z.object({ fid: z.uuid({ error: 'Not a valid form id' }) });
export const FieldParamsSchema = FormParamsSchema.extend({
  fieldId: z.uuid({ error: 'Not a valid field id' }),
});
export const OptionParamsSchema = FieldParamsSchema.extend({
  optionId: z.uuid({ error: 'Not a valid option id' }),
});

const named = { name: FieldNameSchema };

/** A form definition as exported and imported: no ids, no owner, no dates. */
export const FormDefinitionSchema = z.object({
  easyForm: z.literal(1, { error: 'This is not an Easy Form export' }),
  formTitle: FormTitleSchema,
  description: DescriptionSchema.default(''),
  color: HexColorSchema,
  border: HexColorSchema,
  fields: z
    .array(
      z.discriminatedUnion('kind', [
        z.object({
          kind: z.literal('text'),
          name: FieldNameSchema,
          type: z.enum(TEXT_TYPES),
          required: z.boolean(),
          dateRange: TextFieldSchema.shape.dateRange,
        }),
        ...(['select', 'radio', 'check'] as const).map((kind) =>
          z.object({
            kind: z.literal(kind),
            name: FieldNameSchema,
            required: z.boolean(),
            options: z
              .array(OptionValueSchema)
              .min(1, 'Add at least one option')
              .max(OPTIONS_PER_FIELD_MAX)
              .refine((o) => new Set(o).size === o.length, DUPLICATE_OPTION_MESSAGE),
          }),
        ),
        z.object({
          kind: z.literal('file'),
          name: FieldNameSchema,
          required: z.boolean(),
          rules: FileRulesSchema.optional(),
        }),
        NumberFieldSchema.omit({ _id: true }).extend(named),
        RatingFieldSchema.omit({ _id: true }).extend(named),
        ScaleFieldSchema.omit({ _id: true }).extend(named),
        StatementFieldSchema.omit({ _id: true }).extend(named),
        ConsentFieldSchema.omit({ _id: true }).extend(named),
        TimeFieldSchema.omit({ _id: true }).extend(named),
        UrlFieldSchema.omit({ _id: true }).extend(named),
        GridFieldSchema.omit({ _id: true }).extend(named),
      ]),
    )
    .max(FIELDS_PER_FORM_MAX, `A form can have at most ${FIELDS_PER_FORM_MAX} questions`),
  /**
   * The form's items with their page breaks and conditions (docs/decisions/042-pages-and-conditions.md): read
   * instead of `fields` when present; an export made before pages existed has only `fields`.
   */
  items: ItemListSchema.optional(),
  /** The hidden fields the form's link may fill, by name; its conditions may test them. */
  hiddenFields: HiddenFieldsSchema.optional(),
});
export type FormDefinition = z.infer<typeof FormDefinitionSchema>;
export type FieldDefinition = FormDefinition['fields'][number];

/**
 * What a customer's page receives: the questions and what to show after submitting, never the owner's account or
 * the form's limits. The additions (the messages, the items and their version) may be missing from a copy a page
 * stored before they existed.
 */
export const PublicFormSchema = FormSchema.omit({
  ownerIdAsStructureId: true,
  acceptingResponses: true,
  settings: true,
  responseCount: true,
  createdAt: true,
}).extend({
  items: FormSchema.shape.items.optional(),
  moreField: FormSchema.shape.moreField.default([]),
  hiddenFields: FormSchema.shape.hiddenFields.default([]),
  version: FormSchema.shape.version.optional(),
  thankYouMessage: z.string().nullable().default(null),
  redirectUrl: z.string().nullable().default(null),
});
export type PublicForm = z.infer<typeof PublicFormSchema>;

export function toPublicForm(form: Form): PublicForm {
  const {
    ownerIdAsStructureId: _owner,
    acceptingResponses: _open,
    settings,
    responseCount: _count,
    createdAt: _made,
    ...questions
  } = form;
  return { ...questions, thankYouMessage: settings.thankYouMessage, redirectUrl: settings.redirectUrl };
}
