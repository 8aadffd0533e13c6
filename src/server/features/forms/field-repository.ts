// The SQL of a form's questions (table form_fields): adding, editing, ordering and deleting them.
import { randomUUID } from 'node:crypto';
import {
  isMoreKind,
  type FieldDefinition,
  type MoreField,
  type Option,
  type QuestionKind,
  type TextType,
} from '#common/forms.ts';
import type { Condition } from '#common/logic/conditions.ts';
import type { FormItem } from '#common/logic/items.ts';
import type { Queryable } from '../../db/database.ts';

/** A row of form_fields: a question, or a page break (kind `page`, its title in `name`). */
export type FieldRow = {
  id: string;
  form_id: string;
  kind: QuestionKind | 'page';
  name: string;
  text_type: TextType | null;
  required: boolean;
  options: Option[];
  condition: Condition | null;
  help: string | null;
  /** The settings of a kind beyond the product's five; null for the others and for time and web address. */
  settings: Record<string, unknown> | null;
};
export type FieldRecord = Omit<FieldRow, 'form_id' | 'kind' | 'condition' | 'help' | 'settings'> & {
  kind: QuestionKind;
};

/** The item a row holds, as the form's JSON carries it. */
export function itemOf(f: FieldRow): FormItem {
  const condition = {
    ...(f.condition ? { condition: f.condition } : {}),
    ...(f.help ? { help: f.help } : {}),
  };
  if (f.kind === 'page') return { kind: 'page', _id: f.id, title: f.name, ...condition };
  if (f.kind === 'text')
    return {
      kind: 'text',
      _id: f.id,
      name: f.name,
      type: f.text_type ?? 'text',
      required: f.required,
      // A date question's earliest and latest days are kept in the settings column.
      ...(f.settings && f.text_type === 'date' ? { dateRange: f.settings } : {}),
      ...condition,
    };
  if (f.kind === 'file')
    return {
      kind: 'file',
      _id: f.id,
      name: f.name,
      type: 'file',
      required: f.required,
      // A file question's own types and size limit are kept in the settings column.
      ...(f.settings ? { rules: f.settings } : {}),
      ...condition,
    };
  if (isMoreKind(f.kind))
    return {
      kind: f.kind,
      _id: f.id,
      name: f.name,
      required: f.required,
      ...(f.settings ? { settings: f.settings } : {}),
      ...condition,
    } as MoreField;
  return { kind: f.kind, _id: f.id, name: f.name, required: f.required, options: f.options, ...condition };
}

export async function insertFields(
  db: Queryable,
  formId: string,
  fields: readonly FieldDefinition[],
): Promise<void> {
  for (const field of fields) {
    const options = 'options' in field ? field.options.map((value) => ({ _id: randomUUID(), value })) : [];
    await db.query(
      `insert into form_fields (form_id, position, kind, name, text_type, required, options, help, settings)
       values ($1, (select coalesce(max(position), 0) + 1 from form_fields where form_id = $1), $2, $3, $4, $5, $6,
               $7, $8)`,
      [
        formId,
        field.kind,
        field.name,
        field.kind === 'text' ? field.type : null,
        field.required,
        JSON.stringify(options),
        ('help' in field && field.help) || null,
        'settings' in field
          ? JSON.stringify(field.settings)
          : field.kind === 'text' && field.dateRange
            ? JSON.stringify(field.dateRange)
            : field.kind === 'file' && field.rules
              ? JSON.stringify(field.rules)
              : null,
      ],
    );
  }
}

/** The field, if it is of one of `kinds` and belongs to a form of the owner; locked for the caller's transaction. */
export async function findFieldOfOwnerForUpdate(
  db: Queryable,
  ownerId: string,
  formId: string,
  fieldId: string,
  kinds: readonly QuestionKind[],
): Promise<FieldRecord | null> {
  // Of one of `kinds`, never a page break.
  const [row] = await db.query<FieldRecord>(
    `select ff.id, ff.kind, ff.name, ff.text_type, ff.required, ff.options
       from form_fields ff join forms f on f.id = ff.form_id
      where ff.id = $1 and ff.form_id = $2 and f.owner_id = $3 and ff.kind = any($4::text[])
      for update of ff`,
    [fieldId, formId, ownerId, kinds],
  );
  return row ?? null;
}

export async function updateField(
  db: Queryable,
  fieldId: string,
  patch: {
    name?: string;
    textType?: TextType;
    required?: boolean;
    options?: Option[];
    help?: string;
    /** Undefined keeps them; null removes them (a date question's range taken away). */
    settings?: unknown;
  },
): Promise<void> {
  // A help text sent empty removes it ($7 says whether one was sent at all).
  await db.query(
    `update form_fields set name = coalesce($2, name), text_type = coalesce($3, text_type),
            required = coalesce($4, required), options = coalesce($5::jsonb, options),
            help = case when $7::boolean then nullif($6, '') else help end,
            settings = case when $9::boolean then $8::jsonb else settings end
      where id = $1`,
    [
      fieldId,
      patch.name ?? null,
      patch.textType ?? null,
      patch.required ?? null,
      patch.options ? JSON.stringify(patch.options) : null,
      patch.help ?? null,
      patch.help !== undefined,
      patch.settings === undefined || patch.settings === null ? null : JSON.stringify(patch.settings),
      patch.settings !== undefined,
    ],
  );
}

/** Deletes the field; if its form has responses, the field is remembered as retired (see retiredFieldsOf). */
export async function deleteField(db: Queryable, fieldId: string): Promise<void> {
  await db.query(
    `with gone as (delete from form_fields where id = $1 returning id, form_id, name)
     update forms f set retired_fields = f.retired_fields || jsonb_build_array(jsonb_build_object('id', gone.id, 'name', gone.name))
       from gone where f.id = gone.form_id and f.response_count > 0`,
    [fieldId],
  );
}

/** Questions deleted after the form had responses, oldest deletion first: their answers are still stored. */
export async function retiredFieldsOf(
  db: Queryable,
  formId: string,
): Promise<{ id: string; name: string }[]> {
  const [row] = await db.query<{ retired_fields: { id: string; name: string }[] }>(
    'select retired_fields from forms where id = $1',
    [formId],
  );
  return row?.retired_fields ?? [];
}

/** The form's rows, questions and page breaks, in their order. */
export async function listFieldIds(db: Queryable, formId: string): Promise<{ id: string; kind: string }[]> {
  return db.query<{ id: string; kind: string }>(
    'select id, kind from form_fields where form_id = $1 order by position',
    [formId],
  );
}

export async function setFieldPositions(
  db: Queryable,
  formId: string,
  order: readonly string[],
): Promise<void> {
  await db.query(
    `update form_fields ff set position = o.position
       from unnest($2::uuid[]) with ordinality as o(id, position)
      where ff.form_id = $1 and ff.id = o.id`,
    [formId, order],
  );
}
