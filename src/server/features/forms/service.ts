import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AddFieldBodySchema } from '#common/field-calls.ts';
import { FORM_TEMPLATES, templateItems } from '#common/form-templates.ts';
import {
  DUPLICATE_OPTION_MESSAGE,
  FIELD_KIND_IDS,
  MORE_KIND_IDS,
  FIELDS_PER_FORM_MAX,
  FORM_TITLE_MAX,
  OPTIONS_PER_FIELD_MAX,
  type FieldDefinition,
  type QuestionKind,
  type Form,
  type FormDefinition,
  type TemplateId,
} from '#common/forms.ts';
import { truncateText } from '#common/unstorable-text.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { refuseBrokenConditions, refuseUndeclaredHidden } from './condition-guard.ts';
import { toDefinition } from './definition.ts';
import * as fieldRepo from './field-repository.ts';
import { insertItems } from './items.ts';
import * as repo from './repository.ts';

export type FormDeps = {
  db: Database;
  timeZone: string;
  /** The server's own limit on an upload: a file question's size limit is at most this. */
  uploadMaxBytes?: number;
  /** Files of the form's uploads, removed from storage once the form's rows are gone (composed in app.ts). */
  files?: {
    keysOfForm: (tx: Queryable, formId: string) => Promise<string[]>;
    remove: (key: string) => Promise<void>;
  };
};

const formNotFound = () => notFound('Form not found');
const fieldNotFound = () => notFound('Question not found');
export const invalid = (field: string, message: string) =>
  new HttpError(400, 'VALIDATION_FAILED', `${field}: ${message}`);

async function answerForm(deps: FormDeps, tx: Queryable, ownerId: string, formId: string): Promise<Form> {
  const form = await repo.findFormOfOwner(tx, ownerId, formId, deps.timeZone);
  if (!form) throw formNotFound();
  return form;
}

export async function createForm(
  deps: FormDeps,
  ownerId: string,
  input: { template: TemplateId; formTitle?: string; description?: string; color?: string; border?: string },
): Promise<Form> {
  const template = FORM_TEMPLATES[input.template];
  return createFromDefinition(deps, ownerId, {
    easyForm: 1,
    formTitle: input.formTitle ?? template.formTitle,
    description: input.description ?? template.description,
    color: input.color ?? template.color,
    border: input.border ?? template.border,
    fields: template.fields,
    items: templateItems(template),
  });
}

export async function createFromDefinition(
  deps: FormDeps,
  ownerId: string,
  definition: FormDefinition,
): Promise<Form> {
  return deps.db.transaction(async (tx) => {
    const formId = await repo.insertForm(tx, ownerId, definition);
    if (definition.hiddenFields?.length)
      await repo.updateFormOfOwner(tx, ownerId, formId, { hiddenFields: definition.hiddenFields });
    if (definition.items) await insertItems(tx, formId, definition.items);
    else await fieldRepo.insertFields(tx, formId, definition.fields);
    const form = await answerForm(deps, tx, ownerId, formId);
    refuseUndeclaredHidden(form);
    return form;
  });
}

export async function updateForm(
  deps: FormDeps,
  ownerId: string,
  formId: string,
  patch: Parameters<typeof repo.updateFormOfOwner>[3],
): Promise<Form> {
  return deps.db.transaction(async (tx) => {
    // A hidden field a condition tests cannot be removed: the owner changes or removes the condition first.
    const before = patch.hiddenFields ? await answerForm(deps, tx, ownerId, formId) : null;
    if (!(await repo.updateFormOfOwner(tx, ownerId, formId, patch))) throw formNotFound();
    const after = await answerForm(deps, tx, ownerId, formId);
    if (before) refuseBrokenConditions(before, after);
    return after;
  });
}

export type AddFieldInput = z.output<typeof AddFieldBodySchema>;

/** The question the add call describes, as a definition to insert. */
function definitionOfAdded(input: AddFieldInput): FieldDefinition {
  const { id, ...rest } = input;
  if (id === 1) return { kind: 'text', name: rest.name, type: input.type, required: input.required };
  if (id === 5) return { kind: 'file', name: input.name, required: input.required };
  if (id === 2 || id === 3 || id === 4)
    return {
      kind: FIELD_KIND_IDS[id],
      name: input.name,
      required: input.required,
      options: input.options.map((o) => o.value),
    };
  return { ...rest, kind: MORE_KIND_IDS[id] } as FieldDefinition;
}

export async function addField(
  deps: FormDeps,
  ownerId: string,
  formId: string,
  input: AddFieldInput,
): Promise<Form> {
  const field = definitionOfAdded(input);
  return deps.db.transaction(async (tx) => {
    const count = await repo.lockFormOfOwner(tx, ownerId, formId);
    if (count === null) throw formNotFound();
    if (count >= FIELDS_PER_FORM_MAX)
      throw invalid('id', `A form can have at most ${FIELDS_PER_FORM_MAX} questions`);
    await fieldRepo.insertFields(tx, formId, [field]);
    return answerForm(deps, tx, ownerId, formId);
  });
}

export type FieldTarget = {
  ownerId: string;
  formId: string;
  fieldId: string;
  kinds: readonly QuestionKind[];
};

/** Runs `change` on the owner's field of one of `kinds` in a transaction and answers the whole form. */
export async function changeField(
  deps: FormDeps,
  target: FieldTarget,
  change: (tx: Queryable, field: fieldRepo.FieldRecord) => Promise<void>,
): Promise<Form> {
  return deps.db.transaction(async (tx) => {
    // The form's row before the question's, the order deleting the form takes them (its row, then by cascade its
    // questions): the other way round, a question edited while its form was deleted deadlocked and answered 500.
    if ((await repo.lockFormOfOwner(tx, target.ownerId, target.formId)) === null) throw formNotFound();
    const field = await fieldRepo.findFieldOfOwnerForUpdate(
      tx,
      target.ownerId,
      target.formId,
      target.fieldId,
      target.kinds,
    );
    if (!field) throw fieldNotFound();
    const before = await answerForm(deps, tx, target.ownerId, target.formId);
    await change(tx, field);
    const after = await answerForm(deps, tx, target.ownerId, target.formId);
    refuseBrokenConditions(before, after);
    return after;
  });
}

export function deleteField(deps: FormDeps, target: FieldTarget): Promise<Form> {
  return changeField(deps, target, (tx, field) => fieldRepo.deleteField(tx, field.id));
}

export function addOption(deps: FormDeps, target: FieldTarget, value: string): Promise<Form> {
  return changeField(deps, target, async (tx, field) => {
    if (field.options.some((o) => o.value === value)) throw invalid('value', DUPLICATE_OPTION_MESSAGE);
    if (field.options.length >= OPTIONS_PER_FIELD_MAX) {
      throw invalid('value', `A question can have at most ${OPTIONS_PER_FIELD_MAX} options`);
    }
    await fieldRepo.updateField(tx, field.id, { options: [...field.options, { _id: randomUUID(), value }] });
  });
}

export function renameOption(
  deps: FormDeps,
  target: FieldTarget,
  optionId: string,
  value: string,
): Promise<Form> {
  return changeField(deps, target, async (tx, field) => {
    if (!field.options.some((o) => o._id === optionId)) throw notFound('Option not found');
    if (field.options.some((o) => o.value === value && o._id !== optionId))
      throw invalid('name', DUPLICATE_OPTION_MESSAGE);
    const options = field.options.map((o) => (o._id === optionId ? { ...o, value } : o));
    await fieldRepo.updateField(tx, field.id, { options });
  });
}

export function deleteOption(deps: FormDeps, target: FieldTarget, optionId: string): Promise<Form> {
  return changeField(deps, target, async (tx, field) => {
    if (!field.options.some((o) => o._id === optionId)) throw notFound('Option not found');
    if (field.options.length === 1) {
      throw invalid('optionId', 'A question needs at least one option; delete the question instead');
    }
    await fieldRepo.updateField(tx, field.id, { options: field.options.filter((o) => o._id !== optionId) });
  });
}

export async function reorderFields(
  deps: FormDeps,
  ownerId: string,
  formId: string,
  order: string[],
): Promise<Form> {
  return deps.db.transaction(async (tx) => {
    if ((await repo.lockFormOfOwner(tx, ownerId, formId)) === null) throw formNotFound();
    const rows = await fieldRepo.listFieldIds(tx, formId);
    const current = rows.filter((r) => r.kind !== 'page').map((r) => r.id);
    const same =
      order.length === current.length &&
      new Set(order).size === order.length &&
      order.every((id) => current.includes(id));
    if (!same) throw invalid('order', 'List every question of the form exactly once');
    const before = await answerForm(deps, tx, ownerId, formId);
    // The questions take the questions' places in the new order; page breaks stay where they are.
    const next = order[Symbol.iterator]();
    await fieldRepo.setFieldPositions(
      tx,
      formId,
      rows.map((r) => (r.kind === 'page' ? r.id : (next.next().value ?? r.id))),
    );
    const after = await answerForm(deps, tx, ownerId, formId);
    refuseBrokenConditions(before, after);
    return after;
  });
}

/**
 * Deletes the form with its submissions and uploads (rows by cascade, then the files). On PostgreSQL a batch of
 * submissions being inserted for the form meanwhile can deadlock with the cascade (the batch's foreign-key check
 * waits for the form's row, the cascade for the batch's new rows); when the database picks the deletion to abort,
 * it is tried again, a few times, rather than answered with a 500.
 */
export async function deleteForm(deps: FormDeps, ownerId: string, formId: string): Promise<void> {
  const remove = () =>
    deps.db.transaction(async (tx) => {
      if ((await repo.lockFormOfOwner(tx, ownerId, formId)) === null) throw formNotFound();
      const files = (await deps.files?.keysOfForm(tx, formId)) ?? [];
      await repo.deleteFormOfOwner(tx, ownerId, formId);
      return files;
    });
  let keys: string[] | undefined;
  for (let attempt = 1; keys === undefined; attempt++) {
    try {
      keys = await remove();
    } catch (error) {
      if (attempt >= DELETE_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
  await Promise.all(keys.map((key) => deps.files?.remove(key)));
}

const DELETE_ATTEMPTS = 3;
/** PostgreSQL's `deadlock_detected`. */
const isDeadlock = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '40P01';

export async function listForms(deps: FormDeps, ownerId: string): Promise<Form[]> {
  return repo.listFormsOfOwner(deps.db, ownerId, deps.timeZone);
}

export async function findForm(deps: FormDeps, ownerId: string, formId: string): Promise<Form> {
  return answerForm(deps, deps.db, ownerId, formId);
}

export { toDefinition };

export async function duplicateForm(deps: FormDeps, ownerId: string, formId: string): Promise<Form> {
  const definition = toDefinition(await findForm(deps, ownerId, formId));
  // Cut by UTF-16 units without halving an emoji: a cut inside a surrogate pair stored a broken character.
  const title = truncateText(`Copy of ${definition.formTitle}`, FORM_TITLE_MAX);
  return createFromDefinition(deps, ownerId, { ...definition, formTitle: title });
}
