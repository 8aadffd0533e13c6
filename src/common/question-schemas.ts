// The questions' own shapes, as the form's JSON carries them: shared by the form (forms.ts) and its ordered list of
// items (logic/items.ts), which the form's JSON also carries, so neither file needs the other's.
import { z } from 'zod';
import { FILES_MAX } from './kinds/file-rules.ts';
import { GridSettingsSchema } from './kinds/grid-kind.ts';
import { NumberSettingsSchema } from './kinds/number-kind.ts';
import { RatingSettingsSchema, ScaleSettingsSchema } from './kinds/scale-kinds.ts';
import { ConsentSettingsSchema, DateSettingsSchema, StatementSettingsSchema } from './kinds/simple-kinds.ts';

export * from './kind-names.ts';

/** Bounds that keep one form reasonable to render, store and fill in (issue 3). */
export const FORM_TITLE_MAX = 200;
export const FORM_DESCRIPTION_MAX = 2000;
export const FIELD_NAME_MAX = 500;
export const OPTION_VALUE_MAX = 200;
export const FIELDS_PER_FORM_MAX = 200;
export const OPTIONS_PER_FIELD_MAX = 100;
export const HELP_TEXT_MAX = 1000;

/**
 * A question's help text, shown under its title: optional, left out when empty. Trimmed, so a help text of spaces
 * is none.
 */
export const HelpTextSchema = z
  .string()
  .trim()
  .max(HELP_TEXT_MAX, `A help text must be at most ${HELP_TEXT_MAX} characters`)
  .optional();

/** The original client's text types, plus `textarea` for the editor's Paragraph button (docs/spec-deviations.md). */
export const TEXT_TYPES = ['text', 'email', 'password', 'date', 'tel', 'textarea'] as const;
export type TextType = (typeof TEXT_TYPES)[number];

export const OptionSchema = z.object({ _id: z.string(), value: z.string() });
export type Option = z.infer<typeof OptionSchema>;

export const TextFieldSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.enum(TEXT_TYPES),
  required: z.boolean(),
  value: z.string().optional(),
  help: HelpTextSchema,
  /** A date question's earliest and latest days (YYYY-MM-DD), either or both; only for type `date`. */
  dateRange: DateSettingsSchema.optional(),
});
export const ChoiceFieldSchema = z.object({
  _id: z.string(),
  name: z.string(),
  required: z.boolean(),
  options: z.array(OptionSchema),
  help: HelpTextSchema,
});
/**
 * A file question's own rules: which of the accepted types it takes (both when absent), a size limit, and how many
 * files it takes (one when absent).
 */
export const FileRulesSchema = z.strictObject({
  types: z
    .array(z.enum(['image', 'pdf'], { error: 'A type is image or pdf' }))
    .min(1, 'Choose at least one type of file')
    .refine((t) => new Set(t).size === t.length, 'Each type of file once')
    .optional(),
  maxBytes: z
    .number({ error: 'A size limit is a number of bytes' })
    .int('A size limit is a whole number of bytes')
    .min(10_000, 'A size limit is at least 10 KB')
    .max(1_000_000_000, 'A size limit is at most 1 GB')
    .optional(),
  maxFiles: z
    .number({ error: 'How many files is a number' })
    .int('How many files is a whole number')
    .min(1, 'A question takes at least 1 file')
    .max(FILES_MAX, `A question takes at most ${FILES_MAX} files`)
    .optional(),
});

export const FileFieldSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.literal('file'),
  required: z.boolean(),
  help: HelpTextSchema,
  rules: FileRulesSchema.optional(),
});
export type TextField = z.infer<typeof TextFieldSchema>;
export type ChoiceField = z.infer<typeof ChoiceFieldSchema>;
export type FileField = z.infer<typeof FileFieldSchema>;

const question = { _id: z.string(), name: z.string(), required: z.boolean(), help: HelpTextSchema };
export const NumberFieldSchema = z.object({
  ...question,
  kind: z.literal('number'),
  settings: NumberSettingsSchema,
});
export const RatingFieldSchema = z.object({
  ...question,
  kind: z.literal('rating'),
  settings: RatingSettingsSchema,
});
export const ScaleFieldSchema = z.object({
  ...question,
  kind: z.literal('scale'),
  settings: ScaleSettingsSchema,
});
/** A statement asks nothing: never required, never answered. */
export const StatementFieldSchema = z.object({
  ...question,
  required: z.literal(false, { error: 'A statement asks nothing, so it cannot be required' }),
  kind: z.literal('statement'),
  settings: StatementSettingsSchema,
});
export const ConsentFieldSchema = z.object({
  ...question,
  kind: z.literal('consent'),
  settings: ConsentSettingsSchema,
});
export const TimeFieldSchema = z.object({ ...question, kind: z.literal('time') });
export const UrlFieldSchema = z.object({ ...question, kind: z.literal('url') });
/** A choice grid (matrix): rows × columns, one column chosen per row; required means every row. */
export const GridFieldSchema = z.object({
  ...question,
  kind: z.literal('grid'),
  settings: GridSettingsSchema,
});
export const MoreFieldSchema = z.discriminatedUnion('kind', [
  NumberFieldSchema,
  RatingFieldSchema,
  ScaleFieldSchema,
  StatementFieldSchema,
  ConsentFieldSchema,
  TimeFieldSchema,
  UrlFieldSchema,
  GridFieldSchema,
]);
export type MoreField = z.infer<typeof MoreFieldSchema>;
