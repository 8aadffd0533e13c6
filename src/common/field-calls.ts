// The bodies of the owner's per-question calls (docs/api.md, Forms): add a question of any kind, rename or change
// one, its options and the order. The form's own shapes are in forms.ts.
import { z } from 'zod';
import {
  FieldNameSchema,
  FileRulesSchema,
  HelpTextSchema,
  OptionListSchema,
  OptionValueSchema,
  StatementFieldSchema,
  TEXT_TYPES,
  TextFieldSchema,
  FIELDS_PER_FORM_MAX,
} from './forms.ts';
import { GRID_STARTER, GridSettingsSchema } from './kinds/grid-kind.ts';
import { NumberSettingsSchema } from './kinds/number-kind.ts';
import { NPS_PRESET, RatingSettingsSchema, ScaleSettingsSchema } from './kinds/scale-kinds.ts';
import { ConsentSettingsSchema, StatementSettingsSchema } from './kinds/simple-kinds.ts';

const kindId = <N extends number>(n: N) => z.union([z.literal(n), z.literal(String(n))]).transform(() => n);

/** What the add-field call takes of every kind beyond the product's five. */
const added = { name: FieldNameSchema, required: z.boolean().default(false), help: HelpTextSchema };

/** POST /api/text/{fid}: `id` is the field kind (FIELD_KIND_IDS, then MORE_KIND_IDS). */
export const AddFieldBodySchema = z.discriminatedUnion('id', [
  z.object({
    id: kindId(1),
    name: FieldNameSchema,
    type: z.enum(TEXT_TYPES, { error: `Type must be one of ${TEXT_TYPES.join(', ')}` }).default('text'),
    required: z.boolean().default(false),
  }),
  ...([2, 3, 4] as const).map((n) =>
    z.object({
      id: kindId(n),
      name: FieldNameSchema,
      options: OptionListSchema,
      required: z.boolean().default(false),
    }),
  ),
  z.object({ id: kindId(5), name: FieldNameSchema, required: z.boolean().default(false) }),
  z.object({ id: kindId(6), ...added, settings: NumberSettingsSchema.default({ decimals: false }) }),
  z.object({ id: kindId(7), ...added, settings: RatingSettingsSchema.default({ max: 5, style: 'stars' }) }),
  z.object({ id: kindId(8), ...added, settings: ScaleSettingsSchema.default(NPS_PRESET) }),
  z.object({
    id: kindId(9),
    ...added,
    required: StatementFieldSchema.shape.required.default(false),
    settings: StatementSettingsSchema,
  }),
  z.object({ id: kindId(10), ...added, settings: ConsentSettingsSchema }),
  z.object({ id: kindId(11), ...added }),
  z.object({ id: kindId(12), ...added }),
  z.object({ id: kindId(13), ...added, settings: GridSettingsSchema.default(GRID_STARTER) }),
]);
export type AddFieldBody = z.input<typeof AddFieldBodySchema>;

export const RenameFieldBodySchema = z.object({
  name: FieldNameSchema,
  type: z.enum([...TEXT_TYPES, 'file'], { error: `Type must be one of ${TEXT_TYPES.join(', ')}` }).optional(),
  required: z.boolean().optional(),
  /** The help text under the question; empty removes it. */
  help: HelpTextSchema,
  /** A date question's earliest and latest days; null removes them. */
  dateRange: TextFieldSchema.shape.dateRange.unwrap().nullable().optional(),
  /** A file question's own types and size limit; null removes them. */
  fileRules: FileRulesSchema.nullable().optional(),
});
export type RenameFieldBody = z.input<typeof RenameFieldBodySchema>;

/**
 * PUT /api/updateQuestion/{fid}/{fieldId}: a question of a kind beyond the product's five, its name, Required, help
 * text and settings (checked against its kind on the server).
 */
export const UpdateQuestionBodySchema = RenameFieldBodySchema.omit({ type: true, fileRules: true }).extend({
  settings: z.record(z.string(), z.unknown(), { error: 'Settings are an object' }).optional(),
});
export type UpdateQuestionBody = z.input<typeof UpdateQuestionBodySchema>;

export const RenameOptionBodySchema = z.object({ name: OptionValueSchema });
export const AddOptionBodySchema = z.object({ value: OptionValueSchema });
export const FieldOrderBodySchema = z.object({
  order: z.array(z.uuid()).max(FIELDS_PER_FORM_MAX),
});
