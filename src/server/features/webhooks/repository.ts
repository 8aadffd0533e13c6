import type { WebhookAttempt, WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import type { Queryable } from '../../db/database.ts';

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
