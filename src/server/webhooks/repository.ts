import type { WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import type { Queryable } from '../db/database.ts';

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
  const deliveries = await db.query<{
    id: string;
    webhook_id: string;
    submission_id: string;
    status: WebhookDelivery['status'];
    attempts: number;
    created_at: Date;
    next_attempt_at: Date;
    at: Date | null;
    status_code: number | null;
    duration_ms: number | null;
    error: string | null;
  }>(
    `select d.id::text, d.webhook_id, d.submission_id, d.status, d.attempts, d.created_at, d.next_attempt_at,
            la.at, la.status_code, la.duration_ms, la.error
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
    deliveries: deliveries
      .filter((d) => d.webhook_id === h.id)
      .map((d) => ({
        id: d.id,
        submissionId: d.submission_id,
        status: d.status,
        attempts: d.attempts,
        createdAt: d.created_at.toISOString(),
        nextAttemptAt: d.status === 'pending' ? d.next_attempt_at.toISOString() : null,
        lastAttempt: d.at
          ? {
              at: d.at.toISOString(),
              statusCode: d.status_code,
              durationMs: d.duration_ms ?? 0,
              error: d.error,
            }
          : null,
      })),
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

export type DueDelivery = {
  id: string;
  webhookId: string;
  formId: string;
  submissionId: string;
  url: string;
  secret: string;
  attempts: number;
  createdAt: Date;
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
    created_at: Date;
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
     select l.id::text, l.webhook_id, w.form_id, l.submission_id, w.url, w.secret, l.attempts, l.created_at
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
    createdAt: r.created_at,
  }));
}

/** Logs one attempt and moves the delivery on: succeeded, failed for good, or retried at `retryAt`. */
export async function recordAttempt(
  db: Queryable,
  deliveryId: string,
  attempt: { statusCode: number | null; durationMs: number; error: string | null },
  outcome: { status: 'succeeded' | 'failed' } | { status: 'pending'; retryAt: Date },
): Promise<void> {
  await db.query(
    `with logged as (
       insert into webhook_attempts (delivery_id, status_code, duration_ms, error)
       select id, $2, $3, $4 from webhook_deliveries where id = $1::bigint
     )
     update webhook_deliveries set status = $5, attempts = attempts + 1, next_attempt_at = coalesce($6, next_attempt_at)
      where id = $1::bigint`,
    [
      deliveryId,
      attempt.statusCode,
      attempt.durationMs,
      attempt.error,
      outcome.status,
      outcome.status === 'pending' ? outcome.retryAt : null,
    ],
  );
}
