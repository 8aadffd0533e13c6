// A form's whole list of items saved at once (docs/decisions/042-pages-and-conditions.md): questions and page breaks
// in their order, with their conditions, checked as a whole and refused when the form changed since it was read.
import { randomUUID } from 'node:crypto';
import type { Form } from '#common/forms.ts';
import type { Condition } from '#common/logic/conditions.ts';
import type { FormItem } from '#common/logic/items.ts';
import type { Queryable } from '../../db/database.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { refuseUndeclaredHidden } from './condition-guard.ts';
import * as itemRepo from './item-repository.ts';
import * as repo from './repository.ts';
import type { FormDeps } from './service.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function renamed(condition: Condition, ids: ReadonlyMap<string, string>): Condition {
  if ('all' in condition) return { all: condition.all.map((c) => renamed(c, ids)) };
  if ('any' in condition) return { any: condition.any.map((c) => renamed(c, ids)) };
  if ('not' in condition) return { not: renamed(condition.not, ids) };
  return { ...condition, question: ids.get(condition.question) ?? condition.question };
}

const recallsRenamed = (text: string, ids: ReadonlyMap<string, string>) =>
  text.includes('{{answer:')
    ? text.replace(/\{\{answer:([A-Za-z0-9_-]{1,100})/g, (whole, id: string) => {
        const now = ids.get(id);
        return now ? `{{answer:${now}` : whole;
      })
    : text;

/**
 * `items` with an id of their own for every item that is not one of `stored` (a new item may come with any name
 * the caller gave it), and every condition naming the new ids; options get ids where theirs are not ids.
 */
export function withStoredIds(items: readonly FormItem[], stored: ReadonlySet<string>): FormItem[] {
  const ids = new Map(items.map((item) => [item._id, stored.has(item._id) ? item._id : randomUUID()]));
  return items.map((item) => {
    const own = { ...item, _id: ids.get(item._id) ?? item._id };
    if (item.condition) own.condition = renamed(item.condition, ids);
    // A recall of a question added in the same list follows it to its new id, as a condition does.
    if (own.kind !== 'page') {
      own.name = recallsRenamed(own.name, ids);
      if (own.help) own.help = recallsRenamed(own.help, ids);
    }
    if ('options' in own)
      own.options = own.options.map((o) => ({
        _id: UUID.test(o._id) ? o._id : randomUUID(),
        value: o.value,
      }));
    return own;
  });
}

/** Adds `items` to a new form, all with new ids (an import, a duplicate). */
export async function insertItems(tx: Queryable, formId: string, items: readonly FormItem[]): Promise<void> {
  await itemRepo.upsertItems(tx, formId, withStoredIds(items, new Set()));
}

/**
 * Replaces the owner's form's items with `items`, if the form is still at `version` (else 409: someone saved
 * meanwhile, and this list was made from what they changed). Items gone from the list are deleted; a stored item
 * keeps its kind (a question of another kind is a new question, whose answers are counted apart).
 */
export async function saveItems(
  deps: FormDeps,
  ownerId: string,
  formId: string,
  body: { items: FormItem[]; version: number },
): Promise<Form> {
  return deps.db.transaction(async (tx) => {
    const current = await itemRepo.lockItemsOfOwner(tx, ownerId, formId);
    if (!current) throw notFound('Form not found');
    if (current.version !== body.version) {
      throw new HttpError(
        409,
        'EDITED_MEANWHILE',
        `version: The form was changed since version ${body.version} (it is at ${current.version}). Open it again and make your changes there.`,
      );
    }
    const kinds = new Map(current.rows.map((r) => [r.id, r.kind]));
    for (const item of body.items) {
      const was = kinds.get(item._id);
      if (was !== undefined && was !== item.kind) {
        const what = item.kind === 'page' ? `Page “${item.title}”` : `“${item.name}”`;
        throw new HttpError(
          400,
          'VALIDATION_FAILED',
          `items: ${what} was a ${was} item and cannot change kind; add a new one instead`,
        );
      }
    }
    const items = withStoredIds(body.items, new Set(kinds.keys()));
    const kept = new Set(items.map((item) => item._id));
    await itemRepo.deleteItems(
      tx,
      formId,
      current.rows.filter((r) => !kept.has(r.id)).map((r) => r.id),
    );
    await itemRepo.upsertItems(tx, formId, items);
    const form = await repo.findFormOfOwner(tx, ownerId, formId, deps.timeZone);
    if (!form) throw notFound('Form not found');
    refuseUndeclaredHidden(form);
    return form;
  });
}
