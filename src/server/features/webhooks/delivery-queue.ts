// The sender's side of webhook deliveries (docs/decisions/023-webhooks.md): making them from the batches the
// ingest wrote, claiming the due ones under a lease, recording each pass's attempts, and pruning finished ones. The
// owner's reads and edits of webhooks and deliveries stay in repository.ts.
import type { Queryable } from '../../db/database.ts';
import { deleteInBatches } from '../../db/prune.ts';
import { isForeignKeyViolation } from '../../db/sql-errors.ts';

/** What a pass's `makeDeliveries` did: how many batch rows it took, and the responses it had to leave for later. */
export type MadeDeliveries = { batches: number; held: string[] };

/**
 * Makes the deliveries of up to `limit` batches of new responses (written by the submissions' insert, oldest first):
 * one pending delivery per (response, webhook of its form), dated when the response arrived, so its 24-hour window
 * runs from then. Each batch row is taken with `skip locked` and deleted by the statement that makes its deliveries,
 * so two passes or processes never make them twice. A response deleted meanwhile is left out. One that another
 * transaction holds (a deletion under way) stays in its batch row, `held`: once that transaction ends
 * (waitForResponses), the next pass makes its deliveries, or finds it gone.
 */
export async function makeDeliveries(db: Queryable, limit: number): Promise<MadeDeliveries> {
  // A webhook deleted under the statement (seen by its snapshot, gone by the time a delivery's foreign key is checked
  // on it) fails it, having made nothing: it runs again, with a snapshot that no longer sees the webhook. Before,
  // the pass's whole work was lost to an error until the next poll.
  for (let tries = 1; ; tries++) {
    try {
      return await makeDeliveriesOnce(db, limit);
    } catch (error) {
      if (tries >= MAKE_TRIES || !isForeignKeyViolation(error, 'webhook_deliveries_webhook_id_fkey'))
        throw error;
    }
  }
}

/** Each try follows the commit of a webhook's deletion; three in a row is something else, for the pass's error. */
const MAKE_TRIES = 3;

async function makeDeliveriesOnce(db: Queryable, limit: number): Promise<MadeDeliveries> {
  // The statement never waits for a response's lock. Each delivery's foreign key is checked on a response the
  // statement holds (`for key share`, which only a deletion conflicts with), so no deletion can commit under the
  // check: before, one under way failed the whole statement (the pass made and claimed nothing, and an error was
  // logged). And waiting there, with the batch rows and the responses before it held, could close a circle with a
  // deletion (a bulk one locks responses in id order, not the batch's; a form's locks its responses, then wants its
  // batch rows).
  const [row] = await db.query<{ n: number; held: string[] }>(
    `with taken as materialized (
       select id, form_id, submission_ids, created_at from webhook_batches order by id limit $1 for update skip locked
     ), named as (
       select t.id as batch_id, t.form_id, t.created_at, u.id, u.n
         from taken t cross join lateral unnest(t.submission_ids) with ordinality as u(id, n)
     ), locked as materialized (
       select s.id from submissions s where s.id in (select id from named) order by s.id for key share skip locked
     ), held as (
       select n.batch_id, array_agg(n.id order by n.n) as ids
         from named n
        where n.id not in (select id from locked) and exists (select 1 from submissions s where s.id = n.id)
        group by n.batch_id
     ), kept as (
       update webhook_batches b set submission_ids = h.ids from held h where b.id = h.batch_id
     ), done as (
       delete from webhook_batches b where b.id in (select id from taken) and b.id not in (select batch_id from held)
     ), made as (
       insert into webhook_deliveries (webhook_id, submission_id, created_at)
       select w.id, n.id, n.created_at
         from named n
              join locked l on l.id = n.id
              join webhooks w on w.form_id = n.form_id
        order by n.batch_id, n.n, w.created_at, w.id
     )
     select (select count(*)::int from taken) as n,
            array(select h.id::text from held, unnest(held.ids) as h(id)) as held`,
    [limit],
    { prepare: 'make_webhook_deliveries' },
  );
  return { batches: row?.n ?? 0, held: row?.held ?? [] };
}

/**
 * Returns once no other transaction holds these responses against a deletion (waiting for a deletion under way to
 * commit or roll back). Each is waited for alone, in a statement of its own that holds nothing else, so the wait can
 * never close a circle with a deletion.
 */
export async function waitForResponses(db: Queryable, submissionIds: readonly string[]): Promise<void> {
  for (const id of [...submissionIds].sort())
    await db.query('select 1 from submissions where id = $1 for key share', [id]);
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
    { prepare: 'lease_due_deliveries' },
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
 * all in one statement (and one more for each delivery another transaction held meanwhile). A retry that would come
 * more than `giveUpMs` after the delivery's response arrived fails the delivery instead. Every time is the
 * database's (`now()`), the clock every process shares. A delivery deleted meanwhile (with its webhook or its
 * response) is skipped, and leaves no attempt. Returns the ids of the deliveries that failed for good.
 */
export async function recordAttempts(
  db: Queryable,
  recorded: readonly RecordedAttempt[],
  giveUpMs: number,
): Promise<string[]> {
  if (recorded.length === 0) return [];
  // An attempt is logged only for a delivery the statement holds locked, so none can be deleted before the attempt's
  // foreign key is checked. Without the lock, a deletion that committed between the statement's snapshot and that
  // check failed the whole statement: every other delivery of the pass was left unrecorded, and sent again after its
  // lease. Those another transaction holds (a deletion under way, mostly) are skipped, then waited for one at a
  // time, never while the others are held: waiting with them held could close a circle with a deletion that holds
  // one of them and wants another (a deadlock, and a 500 for the owner).
  const rows = await db.query<{ id: string; status: string }>(
    recordStatement('skip locked'),
    paramsOf(recorded, giveUpMs),
    { prepare: 'record_attempts' },
  );
  const done = new Set(rows.map((r) => r.id));
  for (const r of recorded)
    if (!done.has(r.deliveryId))
      rows.push(
        ...(await db.query<{ id: string; status: string }>(recordStatement(''), paramsOf([r], giveUpMs), {
          prepare: 'record_attempt_waiting',
        })),
      );
  return rows.flatMap((r) => (r.status === 'failed' ? [r.id] : []));
}

const recordStatement = (wait: 'skip locked' | '') =>
  `with pass as (
     select p.*
       from unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[], $6::double precision[])
              as p(delivery_id, status_code, duration_ms, error, status, retry_in_ms)
   ), locked as (
     select d.id, d.created_at from webhook_deliveries d
      where d.id = any($1::bigint[])
        for no key update ${wait}
   ), judged as (
     select p.*, p.status = 'pending'
                 and now() + make_interval(secs => p.retry_in_ms / 1000)
                     > l.created_at + make_interval(secs => $7::double precision / 1000) as too_late
       from pass p join locked l on l.id = p.delivery_id
   ), logged as (
     insert into webhook_attempts (delivery_id, status_code, duration_ms, error)
     select p.delivery_id, p.status_code, p.duration_ms, p.error from judged p
   )
   update webhook_deliveries d
      set status = case when p.too_late then 'failed' else p.status end,
          attempts = d.attempts + 1,
          next_attempt_at = case when p.status = 'pending' and not p.too_late
                                 then now() + make_interval(secs => p.retry_in_ms / 1000)
                                 else d.next_attempt_at end
     from judged p
    where d.id = p.delivery_id
    returning d.id::text as id, d.status`;

const paramsOf = (recorded: readonly RecordedAttempt[], giveUpMs: number) => [
  recorded.map((r) => r.deliveryId),
  recorded.map((r) => r.attempt.statusCode),
  recorded.map((r) => r.attempt.durationMs),
  recorded.map((r) => r.attempt.error),
  recorded.map((r) => r.outcome.status),
  recorded.map((r) => (r.outcome.status === 'pending' ? r.outcome.retryInMs : null)),
  giveUpMs,
];

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
