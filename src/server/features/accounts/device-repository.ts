import type { Queryable } from '../../db/database.ts';

/** Whether `tokenHash` is a live device of the account registered under `email`. */
export async function isTrustedDevice(db: Queryable, tokenHash: string, email: string): Promise<boolean> {
  const rows = await db.query(
    `select 1 from trusted_devices d join accounts a on a.id = d.account_id
      where d.token_hash = $1 and a.email = $2 and d.expires_at > now()`,
    [tokenHash, email],
  );
  return rows.length === 1;
}

/** Extends a live device of the account by `days` from now; false when it is not one. */
export async function renewTrustedDevice(
  db: Queryable,
  tokenHash: string,
  accountId: string,
  days: number,
): Promise<boolean> {
  const rows = await db.query(
    `update trusted_devices set expires_at = now() + make_interval(days => $3)
      where token_hash = $1 and account_id = $2 and expires_at > now() returning token_hash`,
    [tokenHash, accountId, days],
  );
  return rows.length === 1;
}

/**
 * Records a device of the account and keeps only the `keep` used most recently (a renewal moves a device to the
 * front), so a script of the owner's logging in without cookies never grows the table without end. Only someone who
 * knows the password adds devices, so no stranger can push the owner's browsers out.
 */
export async function insertTrustedDevice(
  db: Queryable,
  accountId: string,
  tokenHash: string,
  days: number,
  keep: number,
): Promise<void> {
  await db.query(
    `insert into trusted_devices (token_hash, account_id, expires_at) values ($1, $2, now() + make_interval(days => $3))`,
    [tokenHash, accountId, days],
  );
  await db.query(
    `delete from trusted_devices where account_id = $1 and token_hash not in (
       select token_hash from trusted_devices where account_id = $1 order by expires_at desc limit $2)`,
    [accountId, keep],
  );
}
