import type { FormNotifications } from '#common/notifications.ts';
import type { Queryable } from '../../db/database.ts';
import { deleteInBatches } from '../../db/prune.ts';

export async function findNotificationSettings(
  db: Queryable,
  ownerId: string,
  formId: string,
): Promise<FormNotifications | null> {
  const [row] = await db.query<{ notify_owner: boolean; respondent_copy: boolean }>(
    'select notify_owner, respondent_copy from forms where id = $1 and owner_id = $2',
    [formId, ownerId],
  );
  return row ? { notifyOwner: row.notify_owner, respondentCopy: row.respondent_copy } : null;
}

/** Returns null when the form is not the owner's. Changing these does not change the form's version. */
export async function updateNotificationSettings(
  db: Queryable,
  ownerId: string,
  formId: string,
  settings: FormNotifications,
): Promise<FormNotifications | null> {
  const [row] = await db.query<{ notify_owner: boolean; respondent_copy: boolean }>(
    `update forms set notify_owner = $3, respondent_copy = $4 where id = $1 and owner_id = $2
     returning notify_owner, respondent_copy`,
    [formId, ownerId, settings.notifyOwner, settings.respondentCopy],
  );
  return row ? { notifyOwner: row.notify_owner, respondentCopy: row.respondent_copy } : null;
}

export type ResponseEvent = { id: string; formId: string; submissionIds: string[]; copiesSent: boolean };

/**
 * Due events, locked for this transaction; those another process holds are skipped, never waited for. Events of
 * `waiting` forms (known to be inside their window) are left alone unless a respondent copy is still to be sent.
 */
export async function claimDueEvents(
  db: Queryable,
  limit: number,
  waiting: readonly string[],
): Promise<ResponseEvent[]> {
  const rows = await db.query<{
    id: string;
    form_id: string;
    submission_ids: string[];
    copies_sent: boolean;
  }>(
    `select id, form_id, submission_ids, copies_sent from response_events
      where done_at is null and not_before <= now() and not (copies_sent and form_id = any($2::uuid[]))
      order by not_before, id limit $1 for update skip locked`,
    [limit, waiting],
    { prepare: 'claim_due_events' },
  );
  return rows.map((r) => ({
    id: String(r.id),
    formId: r.form_id,
    submissionIds: r.submission_ids,
    copiesSent: r.copies_sent,
  }));
}

export type FormWindow = {
  notifyOwner: boolean;
  respondentCopy: boolean;
  /** When the owner may be mailed next; null when now. */
  waitUntil: Date | null;
  /** How long until then, by the database's clock (the one every process shares); null when now. */
  waitMs: number | null;
  copiesThisHour: number;
};

/**
 * Locks the form's notification window for this transaction (processes handling the same form take turns, so the
 * folding holds across processes) and reads it with the form's settings. Null when the form is gone.
 */
export async function lockFormWindow(
  db: Queryable,
  formId: string,
  windowMs: number,
): Promise<FormWindow | null> {
  await db.query('insert into notification_windows (form_id) values ($1) on conflict (form_id) do nothing', [
    formId,
  ]);
  const [row] = await db.query<{
    notify_owner: boolean;
    respondent_copy: boolean;
    wait_until: Date | null;
    wait_ms: number | null;
    copies: number;
  }>(
    `select f.notify_owner, f.respondent_copy,
            case when w.owner_mailed_at > now() - make_interval(secs => $2)
                 then w.owner_mailed_at + make_interval(secs => $2) end as wait_until,
            case when w.owner_mailed_at > now() - make_interval(secs => $2)
                 then (extract(epoch from w.owner_mailed_at + make_interval(secs => $2) - now()) * 1000)::double precision
            end as wait_ms,
            case when w.copies_hour > now() - interval '1 hour' then w.copies_in_hour else 0 end as copies
       from notification_windows w join forms f on f.id = w.form_id
      where w.form_id = $1
        for update of w`,
    [formId, windowMs / 1000],
  );
  return row
    ? {
        notifyOwner: row.notify_owner,
        respondentCopy: row.respondent_copy,
        waitUntil: row.wait_until,
        waitMs: row.wait_ms,
        copiesThisHour: row.copies,
      }
    : null;
}

export async function recordOwnerMailed(db: Queryable, formId: string): Promise<void> {
  await db.query('update notification_windows set owner_mailed_at = now() where form_id = $1', [formId]);
}

export async function recordCopiesSent(db: Queryable, formId: string, count: number): Promise<void> {
  await db.query(
    `update notification_windows
        set copies_in_hour = case when copies_hour > now() - interval '1 hour' then copies_in_hour + $2 else $2 end,
            copies_hour = case when copies_hour > now() - interval '1 hour' then copies_hour else now() end
      where form_id = $1`,
    [formId, count],
  );
}

export async function markCopiesSent(db: Queryable, eventIds: readonly string[]): Promise<void> {
  await db.query('update response_events set copies_sent = true where id = any($1::bigint[])', [eventIds]);
}

export async function markEventsDone(db: Queryable, eventIds: readonly string[]): Promise<void> {
  await db.query('update response_events set done_at = now() where id = any($1::bigint[])', [eventIds]);
}

export async function deferEvents(db: Queryable, eventIds: readonly string[], until: Date): Promise<void> {
  await db.query('update response_events set not_before = $2 where id = any($1::bigint[])', [
    eventIds,
    until,
  ]);
}

/** Deletes events processed (their mail written to the outbox) more than `keepMs` ago by the database's clock. */
export const deleteProcessedEvents = (db: Queryable, keepMs: number): Promise<number> =>
  deleteInBatches(
    db,
    'response_events',
    'done_at < now() - make_interval(secs => $1::double precision / 1000)',
    [keepMs],
  );
