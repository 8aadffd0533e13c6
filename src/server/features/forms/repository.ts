import { closedMessageOf, closedReasonOf } from '#common/form-gate.ts';
import type { FormSettings } from '#common/form-settings.ts';
import { formatSpecDate, type Form } from '#common/forms.ts';
import { arraysOf } from '#common/logic/items.ts';
import type { Queryable } from '../../db/database.ts';
import { itemOf, type FieldRow } from './field-repository.ts';

type FormRow = {
  id: string;
  owner_id: string;
  title: string;
  description: string;
  color: string;
  border: string;
  created_at: Date;
  accepting_responses: boolean;
  version: number;
  items_version: number;
  hidden_fields: string[];
} & SettingsRow;
type SettingsRow = {
  opens_at: Date | null;
  closes_at: Date | null;
  response_limit: number | null;
  closed_message: string | null;
  thank_you_message: string | null;
  redirect_url: string | null;
  response_count: number;
};
const SETTINGS_COLUMNS =
  'opens_at, closes_at, response_limit, closed_message, thank_you_message, redirect_url, response_count';
const FORM_COLUMNS = `id, owner_id, title, description, color, border, created_at, accepting_responses, version,
  items_version, hidden_fields, ${SETTINGS_COLUMNS}`;

const settingsOf = (row: SettingsRow): FormSettings => ({
  opensAt: row.opens_at?.toISOString() ?? null,
  closesAt: row.closes_at?.toISOString() ?? null,
  responseLimit: row.response_limit,
  closedMessage: row.closed_message,
  thankYouMessage: row.thank_you_message,
  redirectUrl: row.redirect_url,
});
const FIELD_COLUMNS = 'id, form_id, kind, name, text_type, required, options, condition, help, settings';

function toForm(row: FormRow, fields: FieldRow[], timeZone: string): Form {
  const items = fields.map(itemOf);
  return {
    _id: row.id,
    ownerIdAsStructureId: row.owner_id,
    formTitle: row.title,
    description: row.description,
    color: row.color,
    border: row.border,
    Date: formatSpecDate(row.created_at, timeZone),
    createdAt: row.created_at.toISOString(),
    ...arraysOf(items),
    items,
    version: row.items_version,
    acceptingResponses: row.accepting_responses,
    settings: settingsOf(row),
    hiddenFields: row.hidden_fields,
    responseCount: row.response_count,
  };
}

/** The form columns with a `fields` column: the form's fields in order, as one JSON array. */
const FORM_WITH_FIELDS = `${FORM_COLUMNS},
  (select coalesce(json_agg(ff order by ff.position), '[]'::json)
     from (select ${FIELD_COLUMNS}, position from form_fields where form_id = forms.id) ff) as fields`;
type FormWithFieldsRow = FormRow & { fields: FieldRow[] };

/** Every form of the owner, newest first, with fields in order: one query whatever the count. */
export async function listFormsOfOwner(db: Queryable, ownerId: string, timeZone: string): Promise<Form[]> {
  const rows = await db.query<FormWithFieldsRow>(
    `select ${FORM_WITH_FIELDS} from forms where owner_id = $1 order by created_at desc, id`,
    [ownerId],
  );
  return rows.map((row) => toForm(row, row.fields, timeZone));
}

/**
 * Any forms by id (those that exist), with their fields, in one query, and each form's version (it goes up with
 * every change to the form or its fields): what a batch of submissions needs.
 */
export async function findVersionedForms(
  db: Queryable,
  formIds: readonly string[],
  timeZone: string,
): Promise<{ form: Form; version: number }[]> {
  const rows = await db.query<FormWithFieldsRow>(
    `select ${FORM_WITH_FIELDS} from forms where id = any($1::uuid[])`,
    [formIds],
  );
  return rows.map((row) => ({ form: toForm(row, row.fields, timeZone), version: row.version }));
}

export async function findFormOfOwner(
  db: Queryable,
  ownerId: string,
  formId: string,
  timeZone: string,
): Promise<Form | null> {
  const form = await findFormById(db, formId, timeZone);
  return form?.ownerIdAsStructureId === ownerId ? form : null;
}

/** Any form by id, for the customer's side: the public link names only the form. */
export async function findFormById(db: Queryable, formId: string, timeZone: string): Promise<Form | null> {
  const [found] = await findVersionedForms(db, [formId], timeZone);
  return found?.form ?? null;
}

export type FormStatus = 'open' | 'missing' | 'no-file-question' | { closedMessage: string };

/**
 * Whether a form takes uploads, without loading its fields (every upload asks): missing, closed (by its owner, its
 * schedule or its limit; with what to tell the customer), open without a file question (issue 10), or open.
 */
export async function formStatusOf(db: Queryable, formId: string, timeZone: string): Promise<FormStatus> {
  const [row] = await db.query<SettingsRow & { accepting_responses: boolean; has_file: boolean }>(
    `select accepting_responses, ${SETTINGS_COLUMNS},
            exists (select 1 from form_fields f where f.form_id = forms.id and f.kind = 'file') as has_file
       from forms where id = $1`,
    [formId],
  );
  if (!row) return 'missing';
  const settings = settingsOf(row);
  const reason = closedReasonOf(
    { acceptingResponses: row.accepting_responses, settings },
    new Date(),
    row.response_count,
  );
  if (reason) return { closedMessage: closedMessageOf(settings, reason, timeZone) };
  return row.has_file ? 'open' : 'no-file-question';
}

/** Replaces the owner's form's settings; false when the owner has no such form. */
export async function updateSettingsOfOwner(
  db: Queryable,
  ownerId: string,
  formId: string,
  settings: FormSettings,
): Promise<boolean> {
  const rows = await db.query(
    `update forms set opens_at = $3, closes_at = $4, response_limit = $5, closed_message = $6,
            thank_you_message = $7, redirect_url = $8, updated_at = now()
      where id = $1 and owner_id = $2 returning id`,
    [
      formId,
      ownerId,
      settings.opensAt,
      settings.closesAt,
      settings.responseLimit,
      settings.closedMessage,
      settings.thankYouMessage,
      settings.redirectUrl,
    ],
  );
  return rows.length > 0;
}

/** Locks the owner's form row so concurrent edits of its fields queue; returns its question count, or null. */
export async function lockFormOfOwner(
  db: Queryable,
  ownerId: string,
  formId: string,
): Promise<number | null> {
  const [row] = await db.query<{ fields: number }>(
    `select (select count(*) from form_fields where form_id = f.id and kind <> 'page')::int as fields
       from forms f where f.id = $1 and f.owner_id = $2 for update`,
    [formId, ownerId],
  );
  return row ? row.fields : null;
}

export async function insertForm(
  db: Queryable,
  ownerId: string,
  form: { formTitle: string; description: string; color: string; border: string },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `insert into forms (owner_id, title, description, color, border) values ($1, $2, $3, $4, $5) returning id`,
    [ownerId, form.formTitle, form.description, form.color, form.border],
  );
  if (!row) throw new Error('insert into forms returned no row');
  return row.id;
}

export async function updateFormOfOwner(
  db: Queryable,
  ownerId: string,
  formId: string,
  patch: {
    formTitle?: string;
    description?: string;
    color?: string;
    border?: string;
    acceptingResponses?: boolean;
    hiddenFields?: string[];
  },
): Promise<boolean> {
  const rows = await db.query(
    `update forms set title = coalesce($3, title), description = coalesce($4, description),
            color = coalesce($5, color), border = coalesce($6, border),
            accepting_responses = coalesce($7, accepting_responses),
            hidden_fields = coalesce($8::jsonb, hidden_fields),
            -- The hidden fields are part of what a page is drawn from: a submit from a page drawn before they
            -- changed is judged as from an older version (leniently), as after a change of the questions.
            items_version = items_version + (coalesce($8::jsonb, hidden_fields) is distinct from hidden_fields)::int,
            updated_at = now()
      where id = $1 and owner_id = $2 returning id`,
    [
      formId,
      ownerId,
      patch.formTitle ?? null,
      patch.description ?? null,
      patch.color ?? null,
      patch.border ?? null,
      patch.acceptingResponses ?? null,
      patch.hiddenFields ? JSON.stringify(patch.hiddenFields) : null,
    ],
  );
  return rows.length > 0;
}

export async function deleteFormOfOwner(db: Queryable, ownerId: string, formId: string): Promise<boolean> {
  const rows = await db.query('delete from forms where id = $1 and owner_id = $2 returning id', [
    formId,
    ownerId,
  ]);
  return rows.length > 0;
}

/** The titles of the owner's forms that begin with `prefix` (an import's name is numbered past them). */
export async function titlesStartingWith(db: Queryable, ownerId: string, prefix: string): Promise<string[]> {
  const rows = await db.query<{ title: string }>(
    'select title from forms where owner_id = $1 and left(title, length($2)) = $2',
    [ownerId, prefix],
  );
  return rows.map((r) => r.title);
}
