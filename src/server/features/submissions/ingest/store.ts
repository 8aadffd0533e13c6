// Stores a batch's accepted rows: one statement for the common case; a transaction when rows claim uploads or answer
// a form with a response limit, which is counted under the form's row lock (docs/decisions/019-form-limits.md).
import type { Queryable } from '../../../db/database.ts';
import { HttpError } from '../../../http/errors.ts';
import type { SubmissionDeps } from '../deps.ts';
import { insertSubmissions, type NewSubmission } from '../insert-submissions.ts';
import * as repo from '../repository.ts';

export type Accepted = { index: number; row: NewSubmission; uploadIds: string[] };

/**
 * Stores what it can; returns the ids inserted and the indexes refused because their form is full. A row neither
 * inserted nor full was skipped: its key is stored (a retry), or its form changed since it was checked.
 */
export async function storeAccepted(
  deps: SubmissionDeps,
  accepted: readonly Accepted[],
  limitedFormIds: ReadonlySet<string>,
): Promise<{ inserted: Set<string>; full: Set<number> }> {
  const limited = accepted.some((a) => limitedFormIds.has(a.row.formId));
  if (!limited && !accepted.some((a) => a.uploadIds.length > 0)) {
    return {
      inserted: await insertSubmissions(
        deps.db,
        accepted.map((a) => a.row),
      ),
      full: new Set(),
    };
  }
  return deps.db.transaction(async (tx) => {
    const { insert, full } = limited
      ? await capToLimits(tx, accepted, limitedFormIds)
      : { insert: accepted, full: new Set<number>() };
    const inserted = await insertSubmissions(
      tx,
      insert.map((a) => a.row),
    );
    for (const a of insert) {
      if (!inserted.has(a.row.id) || a.uploadIds.length === 0) continue;
      if ((await deps.files.claim(tx, a.row.id, a.uploadIds)) !== a.uploadIds.length) {
        throw new HttpError(
          409,
          'VALIDATION_FAILED',
          'fileObject: A file was used by another submission; upload it again',
        );
      }
    }
    return { inserted, full };
  });
}

/**
 * With the limited forms locked: the rows that fit under each form's limit, first come first served in the batch's
 * order, and those that do not. A row whose key is already stored (a retry) or that was checked against a version
 * of the form that is no longer current takes no place: it is left out of both, for the writer to answer.
 */
async function capToLimits(
  tx: Queryable,
  accepted: readonly Accepted[],
  limitedFormIds: ReadonlySet<string>,
): Promise<{ insert: Accepted[]; full: Set<number> }> {
  const locked = await repo.lockFormCounts(tx, [...limitedFormIds]);
  const keyed = accepted.filter((a) => limitedFormIds.has(a.row.formId) && a.row.idempotencyKey !== null);
  const stored = await repo.findByIdempotencyKeys(
    tx,
    keyed.map((a) => ({ formId: a.row.formId, key: a.row.idempotencyKey ?? '' })),
  );
  const taken = new Map<string, number>();
  const insert: Accepted[] = [];
  const full = new Set<number>();
  for (const a of accepted) {
    const form = locked.get(a.row.formId);
    if (!form) {
      insert.push(a);
      continue;
    }
    if (a.row.formVersion !== null && a.row.formVersion !== form.version) continue;
    if (
      a.row.idempotencyKey !== null &&
      stored.has(repo.idempotencyIdOf(a.row.formId, a.row.idempotencyKey))
    ) {
      continue;
    }
    const used = form.responseCount + (taken.get(a.row.formId) ?? 0);
    if (form.responseLimit !== null && used >= form.responseLimit) {
      full.add(a.index);
      continue;
    }
    taken.set(a.row.formId, (taken.get(a.row.formId) ?? 0) + 1);
    insert.push(a);
  }
  return { insert, full };
}
