import type { WebhookAttempt, WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import type { Queryable } from '../db/database.ts';
import { deleteInBatches } from '../db/prune.ts';

/** Deliveries shown with each webhook in the owner's list. */
const LISTED_DELIVERIES = 20;

/** Whether the form is this owner's. */
export async function ownsForm(db: Queryable, ownerId: string, formId: string): Promise<boolean> {
  const rows = await db.query('select 1 from forms where id = $1 and owner_id = $2', [formId, ownerId]);
  return rows.length > 0;
}

/** The form's webhooks with their latest deliveries and each delivery's last attempt. */
export async function listWebhooks(db: Queryable, formId: string): Promise<WebhookView[]> {
  const hooks = await db.query<{ id: string; url: string; created_at: Date }>(
    'select id, url, created_at from webhooks where form_id = $1 order by created_at, id',
    [formId],
  );
  if (hooks.length === 0) return [];
  const deliveries = await db.query<DeliveryRow & { webhook_id: string }>(
    `select ${DELIVERY_COLUMNS}, d.webhook_id, la.at, la.status_code, la.duration_ms, la.error
       from webhooks w
       cross join lateral (select * from webhook_deliveries d where d.webhook_id = w.id
                            order by d.id desc limit ${LISTED_DELIVERIES}) d
       left join lateral (select * from webhook_attempts a where a.delivery_id = d.id
                           order by a.id desc limit 1) la on true
      where w.form_id = $1
      order by d.id desc`,
    [formId],
  );
  return hooks.map((h) => ({
    id: h.id,
    url: h.url,
    createdAt: h.created_at.toISOString(),
    deliveries: deliveries.filter((d) => d.webhook_id === h.id).map(deliveryOf),
  }));
}

/**
 * Adds a webhook unless the form already has `max`: the form row is locked first, so two concurrent adds cannot
 * both pass the count. Returns null when the form is not the owner's, 'full' when it has `max` already.
 */
export async function addWebhook(
  db: Queryable,
  hook: { id: string; ownerId: string; formId: string; url: string; secret: string },
  max: number,
): Promise<{ createdAt: Date } | null | 'full'> {
  const [form] = await db.query('select 1 from forms where id = $1 and owner_id = $2 for update', [
    hook.formId,
    hook.ownerId,
  ]);
  if (!form) return null;
  const [count] = await db.query<{ n: number }>(
    'select count(*)::int as n from webhooks where form_id = $1',
    [hook.formId],
  );
  if ((count?.n ?? 0) >= max) return 'full';
  const [row] = await db.query<{ created_at: Date }>(
    'insert into webhooks (id, form_id, url, secret) values ($1, $2, $3, $4) returning created_at',
    [hook.id, hook.formId, hook.url, hook.secret],
  );
  return row ? { createdAt: row.created_at } : null;
}

/** Deletes the webhook (with its deliveries and attempts) if it is on this owner's form; whether it was. */
export async function deleteWebhook(
  db: Queryable,
  ownerId: string,
  formId: string,
  webhookId: string,
): Promise<boolean> {
  const rows = await db.query(
    `delete from webhooks w using forms f
      where w.id = $3 and w.form_id = $2 and f.id = w.form_id and f.owner_id = $1
      returning w.id`,
    [ownerId, formId, webhookId],
  );
  return rows.length > 0;
}

/**
 * Makes the deliveries of up to `limit` batches of new responses (written by the submissions' insert, oldest first):
 * one pending delivery per (response, webhook of its form), dated when the response arrived, so its 24-hour window
 * runs from then. Each batch row is deleted by the statement that makes its deliveries, and claimed with `skip
 * locked`, so two passes or processes never make them twice. A response deleted meanwhile is left out. Returns how
 * many batches were taken.
 */
export async function makeDeliveries(db: Queryable, limit: number): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `with taken as (
       delete from webhook_batches
        where id in (select id from webhook_batches order by id limit $1 for update skip locked)
       returning id, form_id, submission_ids, created_at
     ), made as (
       insert into webhook_deliveries (webhook_id, submission_id, created_at)
       select w.id, s.id, t.created_at
         from taken t
              cross join lateral unnest(t.submission_ids) with ordinality as u(id, n)
              join submissions s on s.id = u.id
              join webhooks w on w.form_id = t.form_id
        order by t.id, u.n, w.created_at, w.id
     )
     select count(*)::int as n from taken`,
    [limit],
  );
  return row?.n ?? 0;
}

export type DueDelivery = {
  id: string;
  webhookId: string;
  formId: string;
  submissionId: string;
  url: string;
  secret: string;
  attempts: number;
  /** How long ago its response arrived, by the database's clock, when it was claimed. */
  ageMs: number;
};

/**
 * Due deliveries, leased: locked with `skip locked` (another process's claims are skipped, never waited for) and
 * their next attempt pushed `leaseMs` ahead, so after commit no other pass takes them while this one sends. A
 * process that dies mid-send leaves them to be retried when the lease ends.
 */
export async function claimDueDeliveries(
  db: Queryable,
  limit: number,
  leaseMs: number,
): Promise<DueDelivery[]> {
  const rows = await db.query<{
    id: string;
    webhook_id: string;
    form_id: string;
    submission_id: string;
    url: string;
    secret: string;
    attempts: number;
    age_ms: number;
  }>(
    `with due as (
       select id from webhook_deliveries
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at
        limit $1
        for update skip locked
     ), leased as (
       update webhook_deliveries d set next_attempt_at = now() + make_interval(secs => $2::double precision / 1000)
         from due where d.id = due.id
       returning d.id, d.webhook_id, d.submission_id, d.attempts, d.created_at
     )
     select l.id::text, l.webhook_id, w.form_id, l.submission_id, w.url, w.secret, l.attempts,
            (extract(epoch from now() - l.created_at) * 1000)::double precision as age_ms
       from leased l join webhooks w on w.id = l.webhook_id`,
    [limit, leaseMs],
  );
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    formId: r.form_id,
    submissionId: r.submission_id,
    url: r.url,
    secret: r.secret,
    attempts: r.attempts,
    ageMs: r.age_ms,
  }));
}

/** A failed attempt is retried `retryInMs` after it is recorded, by the database's clock, unless that is too late. */
export type AttemptOutcome = { status: 'succeeded' | 'failed' } | { status: 'pending'; retryInMs: number };

export type RecordedAttempt = {
  deliveryId: string;
  attempt: { statusCode: number | null; durationMs: number; error: string | null };
  outcome: AttemptOutcome;
};

/**
 * Logs a pass's attempts and moves each delivery on (succeeded, failed for good, or retried `retryInMs` from now),
 * all in one statement. A retry that would come more than `giveUpMs` after the delivery's response arrived fails the
 * delivery instead. Every time is the database's (`now()`), the clock every process shares. A delivery deleted
 * meanwhile (with its webhook or its response) is skipped. Returns the ids of the deliveries that failed for good.
 */
export async function recordAttempts(
  db: Queryable,
  recorded: readonly RecordedAttempt[],
  giveUpMs: number,
): Promise<string[]> {
  if (recorded.length === 0) return [];
  const rows = await db.query<{ id: string; status: string }>(
    `with pass as (
       select p.*, p.status = 'pending'
                   and now() + make_interval(secs => p.retry_in_ms / 1000)
                       > d.created_at + make_interval(secs => $7::double precision / 1000) as too_late
         from unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::double precision[])
                as p(delivery_id, status_code, duration_ms, error, status, retry_in_ms)
         join webhook_deliveries d on d.id = p.delivery_id
     ), logged as (
       insert into webhook_attempts (delivery_id, status_code, duration_ms, error)
       select p.delivery_id, p.status_code, p.duration_ms, p.error from pass p
     )
     update webhook_deliveries d
        set status = case when p.too_late then 'failed' else p.status end,
            attempts = d.attempts + 1,
            next_attempt_at = case when p.status = 'pending' and not p.too_late
                                   then now() + make_interval(secs => p.retry_in_ms / 1000)
                                   else d.next_attempt_at end
       from pass p
      where d.id = p.delivery_id
      returning d.id::text as id, d.status`,
    [
      recorded.map((r) => r.deliveryId),
      recorded.map((r) => r.attempt.statusCode),
      recorded.map((r) => r.attempt.durationMs),
      recorded.map((r) => r.attempt.error),
      recorded.map((r) => r.outcome.status),
      recorded.map((r) => (r.outcome.status === 'pending' ? r.outcome.retryInMs : null)),
      giveUpMs,
    ],
  );
  return rows.flatMap((r) => (r.status === 'failed' ? [r.id] : []));
}

/**
 * Ends the lease of deliveries whose send a shutdown interrupted: due again at once, for another process or the next
 * start, with no attempt counted (the receiver's answer was never heard).
 */
export async function releaseDeliveries(db: Queryable, deliveryIds: readonly string[]): Promise<void> {
  if (deliveryIds.length === 0) return;
  await db.query(
    `update webhook_deliveries set next_attempt_at = now() where id = any($1::bigint[]) and status = 'pending'`,
    [deliveryIds],
  );
}

type AttemptRow = { at: Date; status_code: number | null; duration_ms: number; error: string | null };

/** A delivery's columns (as `d`), with its last attempt's (null when none) beside them. */
type DeliveryRow = {
  id: string;
  submission_id: string;
  status: WebhookDelivery['status'];
  attempts: number;
  created_at: Date;
  next_attempt_at: Date;
} & { [K in keyof AttemptRow]: AttemptRow[K] | null };

const DELIVERY_COLUMNS = 'd.id::text, d.submission_id, d.status, d.attempts, d.created_at, d.next_attempt_at';

const attemptOf = (a: AttemptRow): WebhookAttempt => ({
  at: a.at.toISOString(),
  statusCode: a.status_code,
  durationMs: a.duration_ms,
  error: a.error,
});

function deliveryOf(d: DeliveryRow): WebhookDelivery {
  return {
    id: d.id,
    submissionId: d.submission_id,
    status: d.status,
    attempts: d.attempts,
    createdAt: d.created_at.toISOString(),
    nextAttemptAt: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
    lastAttempt: d.at ? attemptOf({ ...d, at: d.at, duration_ms: d.duration_ms ?? 0 }) : null,
  };
}

/** Where a webhook is, by owner: the predicate every route of one webhook uses. */
const OWNED_WEBHOOK = `w.id = $2 and w.form_id = $1
   and exists (select 1 from forms f where f.id = w.form_id and f.owner_id = $3)`;

export type WebhookKey = { ownerId: string; formId: string; webhookId: string };
const keyParams = (k: WebhookKey) => [k.formId, k.webhookId, k.ownerId];

/** The webhook's address and secret, if it is on this owner's form. */
export async function findWebhookOfOwner(
  db: Queryable,
  key: WebhookKey,
): Promise<{ url: string; secret: string } | null> {
  const [row] = await db.query<{ url: string; secret: string }>(
    `select w.url, w.secret from webhooks w where ${OWNED_WEBHOOK}`,
    keyParams(key),
  );
  return row ?? null;
}

/** Gives the webhook a new secret, if it is on this owner's form; whether it was. */
export async function setWebhookSecret(db: Queryable, key: WebhookKey, secret: string): Promise<boolean> {
  const rows = await db.query(`update webhooks w set secret = $4 where ${OWNED_WEBHOOK} returning w.id`, [
    ...keyParams(key),
    secret,
  ]);
  return rows.length > 0;
}

/** One delivery of this owner's webhook, with its last attempt; null when there is none such. */
export async function findDelivery(
  db: Queryable,
  key: WebhookKey,
  deliveryId: string,
): Promise<WebhookDelivery | null> {
  const [row] = await db.query<DeliveryRow>(
    `select ${DELIVERY_COLUMNS}, la.at, la.status_code, la.duration_ms, la.error
       from webhooks w
       join webhook_deliveries d on d.webhook_id = w.id and d.id = $4::bigint
       left join lateral (select * from webhook_attempts a where a.delivery_id = d.id
                           order by a.id desc limit 1) la on true
      where ${OWNED_WEBHOOK}`,
    [...keyParams(key), deliveryId],
  );
  return row ? deliveryOf(row) : null;
}

/** Every attempt of a delivery, oldest first (the caller has checked the delivery is the owner's). */
export async function listAttempts(db: Queryable, deliveryId: string): Promise<WebhookAttempt[]> {
  const rows = await db.query<AttemptRow>(
    'select at, status_code, duration_ms, error from webhook_attempts where delivery_id = $1::bigint order by id',
    [deliveryId],
  );
  return rows.map(attemptOf);
}

/**
 * A new pending delivery of the same response to the same webhook, due now, with its own 24-hour window. Null when
 * the delivery is not this owner's; 'not failed' when it has not failed (the row is locked while it is checked).
 */
export async function resendDelivery(
  db: Queryable,
  key: WebhookKey,
  deliveryId: string,
): Promise<WebhookDelivery | null | 'not failed'> {
  // The response's row is locked before the delivery's, in the order a deletion of the response takes them (its
  // row, then by cascade its deliveries): locking the delivery first and the response only in the insert's foreign
  // key check deadlocked with that deletion, and one of the two owner's requests answered 500.
  const [response] = await db.query(
    `select 1 from submissions s where s.id = (
       select d.submission_id from webhooks w join webhook_deliveries d on d.webhook_id = w.id and d.id = $4::bigint
        where ${OWNED_WEBHOOK})
      for key share`,
    [...keyParams(key), deliveryId],
  );
  if (!response) return null;
  const [old] = await db.query<{ status: WebhookDelivery['status'] }>(
    `select d.status from webhooks w join webhook_deliveries d on d.webhook_id = w.id and d.id = $4::bigint
      where ${OWNED_WEBHOOK} for update of d`,
    [...keyParams(key), deliveryId],
  );
  if (!old) return null;
  if (old.status !== 'failed') return 'not failed';
  const [row] = await db.query<DeliveryRow>(
    `insert into webhook_deliveries as d (webhook_id, submission_id)
       select webhook_id, submission_id from webhook_deliveries where id = $1::bigint
     returning ${DELIVERY_COLUMNS}, null::timestamptz as at, null::int as status_code, null::int as duration_ms,
               null::text as error`,
    [deliveryId],
  );
  return row ? deliveryOf(row) : null;
}

/**
 * Deletes finished (succeeded or failed) deliveries created more than `keepMs` ago by the database's clock, their
 * attempts with them; how many.
 */
export const deleteFinishedDeliveries = (db: Queryable, keepMs: number): Promise<number> =>
  deleteInBatches(
    db,
    'webhook_deliveries',
    "status <> 'pending' and created_at < now() - make_interval(secs => $1::double precision / 1000)",
    [keepMs],
  );
