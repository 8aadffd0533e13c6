// The customer's side reads a form on every page drawn and every post (a page without JavaScript reads it at each
// Next). Reading a form of 50 questions with its fields costs the database far more than reading its version, so
// the customer's side keeps forms in memory by version: every change to a form or its questions raises it (005,
// 009, 021), and the response count, which changes with every submission without raising it, is read fresh.
import { LRUCache } from 'lru-cache';
import type { Form } from '#common/forms.ts';
import type { Queryable } from '../../db/database.ts';
import { findVersionedForms } from './repository.ts';

/** How many forms the customer's side keeps: the forms being filled in at any one time. */
export const FORM_CACHE_SIZE = 500;

/** `find(formId)`: the form as `findFormById` answers it, read whole only when its version has changed. */
export function cachedFormFinder(db: Queryable, timeZone: string) {
  const cache = new LRUCache<string, { version: number; form: Form }>({ max: FORM_CACHE_SIZE });
  return async (formId: string): Promise<Form | null> => {
    const [row] = await db.query<{ version: number; response_count: number }>(
      'select version, response_count from forms where id = $1',
      [formId],
    );
    if (!row) {
      cache.delete(formId);
      return null;
    }
    const hit = cache.get(formId);
    if (hit?.version === row.version) return { ...hit.form, responseCount: row.response_count };
    // Read after the version: a change in between gives a newer form under an older version, read again next time.
    const [found] = await findVersionedForms(db, [formId], timeZone);
    if (!found) return null;
    cache.set(formId, { version: row.version, form: found.form });
    return found.form;
  };
}
