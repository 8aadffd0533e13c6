import type { Profile } from '#common/accounts.ts';
import type { Queryable } from '../../db/database.ts';

export type AccountRecord = {
  id: string;
  fullName: string;
  email: string;
  passwordHash: string;
  isVerified: boolean;
};

type AccountRow = { id: string; full_name: string; email: string; password_hash: string; verified: boolean };

export async function findAccountByEmail(db: Queryable, email: string): Promise<AccountRecord | null> {
  const [row] = await db.query<AccountRow>(
    `select id, full_name, email, password_hash, email_verified_at is not null as verified
       from accounts where email = $1`,
    [email],
  );
  return row
    ? {
        id: row.id,
        fullName: row.full_name,
        email: row.email,
        passwordHash: row.password_hash,
        isVerified: row.verified,
      }
    : null;
}

/** Returns null when the email is already registered. */
export async function insertAccount(
  db: Queryable,
  account: { fullName: string; email: string; passwordHash: string },
): Promise<(Profile & { id: string }) | null> {
  const [row] = await db.query<{ id: string; full_name: string; email: string }>(
    `insert into accounts (full_name, email, password_hash) values ($1, $2, $3)
     on conflict (email) do nothing
     returning id, full_name, email`,
    [account.fullName, account.email, account.passwordHash],
  );
  return row ? { id: row.id, fullName: row.full_name, email: row.email } : null;
}

export async function updatePasswordHash(
  db: Queryable,
  accountId: string,
  passwordHash: string,
): Promise<void> {
  await db.query('update accounts set password_hash = $2 where id = $1', [accountId, passwordHash]);
}

/**
 * Sets the hash only if it is still `expected` (the one the current password was checked against): of two changes
 * racing, the second finds it changed and sets nothing. True when it was set.
 */
export async function replacePasswordHash(
  db: Queryable,
  accountId: string,
  expected: string,
  passwordHash: string,
): Promise<boolean> {
  const rows = await db.query(
    'update accounts set password_hash = $3 where id = $1 and password_hash = $2 returning id',
    [accountId, expected, passwordHash],
  );
  return rows.length === 1;
}

export async function markEmailVerified(db: Queryable, accountId: string): Promise<void> {
  await db.query('update accounts set email_verified_at = coalesce(email_verified_at, now()) where id = $1', [
    accountId,
  ]);
}

/**
 * Starts a session only while the account's password hash is still `passwordHash`, the one the login checked. The
 * row lock waits for a reset or change in flight: once it commits the hash differs and nothing is inserted; a
 * session inserted first is one the reset's or change's own delete then sees. Without it, a login that read the old
 * hash before a reset got a session after the reset had revoked them all. True when it was started.
 */
export async function insertSession(
  db: Queryable,
  account: { id: string; passwordHash: string },
  tokenHash: string,
  days: number,
): Promise<boolean> {
  const rows = await db.query(
    `insert into sessions (token_hash, account_id, expires_at)
     select $1, a.id, now() + make_interval(days => $3) from accounts a
      where a.id = $2 and a.password_hash = $4 for share of a
     returning token_hash`,
    [tokenHash, account.id, days, account.passwordHash],
  );
  return rows.length === 1;
}

export async function deleteSession(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('delete from sessions where token_hash = $1', [tokenHash]);
}

export async function deleteSessionsOfAccount(db: Queryable, accountId: string): Promise<void> {
  await db.query('delete from sessions where account_id = $1', [accountId]);
}

/** Replaces any unused link of the account: only the newest link works. */
export async function replaceEmailVerification(
  db: Queryable,
  accountId: string,
  tokenHash: string,
  hours: number,
): Promise<void> {
  await db.query('delete from email_verifications where account_id = $1 and used_at is null', [accountId]);
  await db.query(
    `insert into email_verifications (token_hash, account_id, expires_at) values ($1, $2, now() + make_interval(hours => $3))`,
    [tokenHash, accountId, hours],
  );
}

export type VerificationState = { accountId: string; isUsed: boolean; isExpired: boolean };

export async function findEmailVerificationForUpdate(
  db: Queryable,
  tokenHash: string,
): Promise<VerificationState | null> {
  const [row] = await db.query<{ account_id: string; used: boolean; expired: boolean }>(
    `select account_id, used_at is not null as used, expires_at <= now() as expired
       from email_verifications where token_hash = $1 for update`,
    [tokenHash],
  );
  return row ? { accountId: row.account_id, isUsed: row.used, isExpired: row.expired } : null;
}

export async function markEmailVerificationUsed(db: Queryable, tokenHash: string): Promise<void> {
  await db.query('update email_verifications set used_at = now() where token_hash = $1', [tokenHash]);
}

/**
 * Adds a reset mail's link, and its code unless `codeHash` is null (a mail past the per-email count of codes carries
 * only the link). Earlier mails stay valid until they expire or one of them is used: asking again never kills the
 * mail sent a minute ago. The account's expired rows go at the same time.
 */
export async function insertResetCode(
  db: Queryable,
  accountId: string,
  hashes: { codeHash: string | null; linkHash: string },
  minutes: number,
): Promise<void> {
  await db.query('delete from password_reset_codes where account_id = $1 and expires_at <= now()', [
    accountId,
  ]);
  await db.query(
    `insert into password_reset_codes (account_id, code_hash, link_hash, expires_at)
     values ($1, $2, $3, now() + make_interval(mins => $4))`,
    [accountId, hashes.codeHash, hashes.linkHash, minutes],
  );
}

/** The account's codes that can still be used, newest first, locked until the transaction ends. */
export async function findLiveResetCodesForUpdate(
  db: Queryable,
  accountId: string,
  maxWrongTries: number,
): Promise<{ id: string; codeHash: string }[]> {
  const rows = await db.query<{ id: string; code_hash: string }>(
    `select id, code_hash from password_reset_codes
      where account_id = $1 and code_hash is not null and used_at is null and expires_at > now()
        and wrong_tries < $2
      order by created_at desc for update`,
    [accountId, maxWrongTries],
  );
  return rows.map((row) => ({ id: row.id, codeHash: row.code_hash }));
}

/** The account a live reset link belongs to. Wrong codes never count against a link: only use and time end it. */
export async function findLiveResetLinkForUpdate(
  db: Queryable,
  linkHash: string,
): Promise<{ accountId: string } | null> {
  const [row] = await db.query<{ account_id: string }>(
    `select account_id from password_reset_codes
      where link_hash = $1 and used_at is null and expires_at > now() for update`,
    [linkHash],
  );
  return row ? { accountId: row.account_id } : null;
}

/** A wrong guess counts against every live code, so keeping several live gives a guesser no more tries per code. */
export async function recordWrongResetTry(db: Queryable, codeIds: string[]): Promise<void> {
  await db.query('update password_reset_codes set wrong_tries = wrong_tries + 1 where id = any($1::uuid[])', [
    codeIds,
  ]);
}

/** Ends every unused code and link of the account: one reset uses up all the mails that asked for it. */
export async function markResetCodesUsed(db: Queryable, accountId: string): Promise<void> {
  await db.query(
    'update password_reset_codes set used_at = now() where account_id = $1 and used_at is null',
    [accountId],
  );
}

export async function updateFullName(db: Queryable, accountId: string, fullName: string): Promise<void> {
  await db.query('update accounts set full_name = $2 where id = $1', [accountId, fullName]);
}

/** The account's own time zone; null when it reads times in its browser's. */
export async function findTimeZone(db: Queryable, accountId: string): Promise<string | null> {
  const [row] = await db.query<{ time_zone: string | null }>('select time_zone from accounts where id = $1', [
    accountId,
  ]);
  return row?.time_zone ?? null;
}

export async function updateTimeZone(db: Queryable, accountId: string, zone: string | null): Promise<void> {
  await db.query('update accounts set time_zone = $2 where id = $1', [accountId, zone]);
}

export async function findPasswordHash(db: Queryable, accountId: string): Promise<string | null> {
  const [row] = await db.query<{ password_hash: string }>(
    'select password_hash from accounts where id = $1',
    [accountId],
  );
  return row?.password_hash ?? null;
}

export async function deleteOtherSessions(
  db: Queryable,
  accountId: string,
  keepTokenHash: string,
): Promise<void> {
  await db.query('delete from sessions where account_id = $1 and token_hash <> $2', [
    accountId,
    keepTokenHash,
  ]);
}

export async function findAccountEmail(db: Queryable, accountId: string): Promise<string | null> {
  const [row] = await db.query<{ email: string }>('select email from accounts where id = $1', [accountId]);
  return row?.email ?? null;
}
