// The SQL of a form's whole list of items (table form_fields): the list saved at once, in its order.
import type { FormItem } from '#common/logic/items.ts';
import type { Queryable } from '../../db/database.ts';

/** The version of the form's items and its rows' ids and kinds, the form's row locked; null when not the owner's. */
export async function lockItemsOfOwner(
  db: Queryable,
  ownerId: string,
  formId: string,
): Promise<{ version: number; rows: { id: string; kind: string }[] } | null> {
  const [row] = await db.query<{ items_version: number; rows: { id: string; kind: string }[] }>(
    `select f.items_version,
            (select coalesce(json_agg(json_build_object('id', ff.id, 'kind', ff.kind)), '[]'::json)
               from form_fields ff where ff.form_id = f.id) as rows
       from forms f where f.id = $1 and f.owner_id = $2 for update`,
    [formId, ownerId],
  );
  return row ? { version: row.items_version, rows: row.rows } : null;
}

/**
 * Deletes these rows of the form; questions of a form that already has responses are remembered as retired (their
 * answers are still stored, and the CSV keeps their column), as deleting one question does.
 */
export async function deleteItems(db: Queryable, formId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `with gone as (
       delete from form_fields where form_id = $1 and id = any($2::uuid[]) returning id, name, kind
     ), retired as (
       select coalesce(jsonb_agg(jsonb_build_object('id', id, 'name', name)), '[]'::jsonb) as list
         from gone where kind <> 'page'
     )
     update forms f set retired_fields = f.retired_fields || retired.list
       from retired where f.id = $1 and f.response_count > 0 and jsonb_array_length(retired.list) > 0`,
    [formId, ids],
  );
}

/** Stores `items` as the form's rows in their order: a row with an item's id is updated, others are added. */
export async function upsertItems(db: Queryable, formId: string, items: readonly FormItem[]): Promise<void> {
  if (items.length === 0) return;
  const rows = items.map((item, index) => ({
    id: item._id,
    position: index + 1,
    kind: item.kind,
    name: item.kind === 'page' ? item.title : item.name.trim(),
    text_type: item.kind === 'text' ? item.type : null,
    required: item.kind === 'page' ? false : item.required,
    options: 'options' in item ? item.options.map((o) => ({ _id: o._id, value: o.value.trim() })) : [],
    condition: item.condition ?? null,
    help: item.kind === 'page' ? null : item.help || null,
    settings:
      'settings' in item
        ? item.settings
        : item.kind === 'text'
          ? (item.dateRange ?? null)
          : item.kind === 'file'
            ? (item.rules ?? null)
            : null,
  }));
  await db.query(
    `insert into form_fields (id, form_id, position, kind, name, text_type, required, options, condition, help,
                              settings)
     select r.id, $1, r.position, r.kind, r.name, r.text_type, r.required, r.options, r.condition, r.help,
            r.settings
       from jsonb_to_recordset($2::jsonb) as r(id uuid, position integer, kind text, name text, text_type text,
            required boolean, options jsonb, condition jsonb, help text, settings jsonb)
     on conflict (id) do update set position = excluded.position, name = excluded.name,
        text_type = excluded.text_type, required = excluded.required, options = excluded.options,
        condition = excluded.condition, help = excluded.help, settings = excluded.settings
      where form_fields.form_id = excluded.form_id`,
    [formId, JSON.stringify(rows)],
  );
}
