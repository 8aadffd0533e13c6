import {
  ACCOUNT_MESSAGES,
  OTP_MAX_WRONG_TRIES,
  OTP_MINUTES,
  SESSION_DAYS,
  VERIFICATION_LINK_HOURS,
  type LoginResponse,
  type Profile,
} from '#common/accounts.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { digest, hashPassword, newOtp, newSecret, verifyPassword } from '../../http/crypto.ts';
import { HttpError } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { resetMail, verificationMail } from './mails.ts';
import * as repo from './repository.ts';

export type AccountDeps = { db: Database; mailer: Mailer; publicUrl: string };

const verificationLink = (publicUrl: string, token: string) =>
  `${publicUrl}/api/v1/verifyEmail?token=${encodeURIComponent(token)}`;

export async function signUp(
  deps: AccountDeps,
  input: { fullName: string; email: string; password: string },
): Promise<Profile> {
  const passwordHash = await hashPassword(input.password);
  const token = newSecret();
  const account = await deps.db.transaction(async (tx) => {
    const created = await repo.insertAccount(tx, {
      fullName: input.fullName,
      email: input.email,
      passwordHash,
    });
    if (!created) return null;
    await repo.replaceEmailVerification(tx, created.id, digest(token), VERIFICATION_LINK_HOURS);
    await deps.mailer.enqueue(
      tx,
      verificationMail(created.email, created.fullName, verificationLink(deps.publicUrl, token)),
    );
    return created;
  });
  if (!account) {
    throw new HttpError(
      409,
      'EMAIL_TAKEN',
      'An account with this email already exists. Log in or reset your password.',
    );
  }
  void deps.mailer.flush();
  return { fullName: account.fullName, email: account.email };
}

/** Sends a fresh link when the account exists and is unverified; answers the same either way. */
export async function resendVerification(deps: AccountDeps, email: string): Promise<void> {
  const token = newSecret();
  const sent = await deps.db.transaction(async (tx) => {
    const account = await repo.findAccountByEmail(tx, email);
    if (!account || account.isVerified) return false;
    await repo.replaceEmailVerification(tx, account.id, digest(token), VERIFICATION_LINK_HOURS);
    await deps.mailer.enqueue(
      tx,
      verificationMail(account.email, account.fullName, verificationLink(deps.publicUrl, token)),
    );
    return true;
  });
  if (sent) void deps.mailer.flush();
}

export type VerifyOutcome = 'verified' | 'expired' | 'used' | 'invalid';

export async function verifyEmail(deps: AccountDeps, token: string): Promise<VerifyOutcome> {
  return deps.db.transaction(async (tx) => {
    const link = await repo.findEmailVerificationForUpdate(tx, digest(token));
    if (!link) return 'invalid';
    if (link.isUsed) return 'used';
    if (link.isExpired) return 'expired';
    await repo.markEmailVerificationUsed(tx, digest(token));
    await repo.markEmailVerified(tx, link.accountId);
    await repo.deleteSessionsOfAccount(tx, link.accountId);
    return 'verified';
  });
}

export async function logIn(
  deps: AccountDeps,
  input: { email: string; password: string },
): Promise<LoginResponse> {
  const account = await repo.findAccountByEmail(deps.db, input.email);
  // The original contract's statuses (404/405/406, docs/product.md) tell a caller whether an email is registered;
  // rate limits bound the guessing that allows (docs/decisions/004-account-rate-limits.md).
  if (!account) throw new HttpError(404, 'EMAIL_NOT_FOUND', ACCOUNT_MESSAGES.emailNotFound);
  if (!(await verifyPassword(account.passwordHash, input.password))) {
    throw new HttpError(405, 'PASSWORD_INVALID', ACCOUNT_MESSAGES.passwordInvalid);
  }
  if (!account.isVerified) throw new HttpError(406, 'EMAIL_NOT_VERIFIED', ACCOUNT_MESSAGES.emailNotVerified);
  const token = newSecret();
  // The password was reset or changed while it was being checked: the one given is no longer right.
  if (!(await repo.insertSession(deps.db, account, digest(token), SESSION_DAYS))) {
    throw new HttpError(405, 'PASSWORD_INVALID', ACCOUNT_MESSAGES.passwordInvalid);
  }
  return { token, id: account.id };
}

export async function logOut(deps: AccountDeps, tokenHash: string): Promise<void> {
  await repo.deleteSession(deps.db, tokenHash);
}

/** Where the reset mail's link leads: the secret rides in the fragment, which no server or log ever sees. */
const resetLink = (publicUrl: string, key: string) => `${publicUrl}/resetPassword#key=${key}`;

/**
 * Mails a reset link, with a one-time code when `withCode`, if the account exists; answers the same either way, so
 * it reveals nothing. Earlier mails keep working.
 */
export async function sendResetCode(deps: AccountDeps, email: string, withCode: boolean): Promise<void> {
  const code = withCode ? newOtp() : null;
  const key = newSecret();
  const sent = await deps.db.transaction(async (tx) => {
    const account = await repo.findAccountByEmail(tx, email);
    if (!account) return false;
    const hashes = { codeHash: code && digest(code), linkHash: digest(key) };
    await repo.insertResetCode(tx, account.id, hashes, OTP_MINUTES);
    await deps.mailer.enqueue(tx, resetMail(account.email, code, resetLink(deps.publicUrl, key)));
    return true;
  });
  if (sent) void deps.mailer.flush();
}

const codeInvalid = () =>
  new HttpError(400, 'CODE_INVALID', 'This code is wrong, expired or already used. Request a new code.');
const linkInvalid = () =>
  new HttpError(400, 'LINK_INVALID', 'This reset link is wrong, expired or already used. Request a new one.');

/** Sets the new password once a code or link is proven: every code, link and session of the account ends. */
async function finishReset(tx: Queryable, accountId: string, passwordHash: string): Promise<void> {
  await repo.markResetCodesUsed(tx, accountId);
  await repo.updatePasswordHash(tx, accountId, passwordHash);
  // Only the mailbox owner could read the code or the link, so the address is proven too.
  await repo.markEmailVerified(tx, accountId);
  await repo.deleteSessionsOfAccount(tx, accountId);
}

/** Resets the password with a mailed code; the account's id. */
export async function resetPassword(
  deps: AccountDeps,
  input: { email: string; otp: string; password: string },
): Promise<string> {
  /** The account when `input.otp` is one of its live codes; a wrong guess is counted against them when `count`. */
  const accountOfCode = async (tx: Queryable, count = true) => {
    const account = await repo.findAccountByEmail(tx, input.email);
    if (!account) return null;
    const codes = await repo.findLiveResetCodesForUpdate(tx, account.id, OTP_MAX_WRONG_TRIES);
    if (codes.some((code) => code.codeHash === digest(input.otp))) return account.id;
    // Committed with the transaction, so a code dies after OTP_MAX_WRONG_TRIES wrong guesses.
    if (count && codes.length > 0)
      await repo.recordWrongResetTry(
        tx,
        codes.map((code) => code.id),
      );
    return null;
  };
  // The code is checked before the new password is hashed: a wrong code costs the server a query, not a hash.
  if (!(await deps.db.transaction((tx) => accountOfCode(tx)))) throw codeInvalid();
  const passwordHash = await hashPassword(input.password);
  const accountId = await deps.db.transaction(async (tx) => {
    // Checked again under its lock: the code may have been used meanwhile (that is not this caller's wrong guess).
    const id = await accountOfCode(tx, false);
    if (id) await finishReset(tx, id, passwordHash);
    return id;
  });
  if (!accountId) throw codeInvalid();
  return accountId;
}

/** Resets the password with the mail's link, which no number of wrong codes ends; the account's id. */
export async function resetPasswordWithLink(
  deps: AccountDeps,
  input: { key: string; password: string },
): Promise<string> {
  const linkHash = digest(input.key);
  // As with the code: an unknown link costs a query, not a hash.
  if (!(await repo.findLiveResetLinkForUpdate(deps.db, linkHash))) throw linkInvalid();
  const passwordHash = await hashPassword(input.password);
  const accountId = await deps.db.transaction(async (tx) => {
    const link = await repo.findLiveResetLinkForUpdate(tx, linkHash);
    if (link) await finishReset(tx, link.accountId, passwordHash);
    return link?.accountId ?? null;
  });
  if (!accountId) throw linkInvalid();
  return accountId;
}

export async function renameAccount(deps: AccountDeps, accountId: string, fullName: string): Promise<void> {
  await repo.updateFullName(deps.db, accountId, fullName);
}

/** Changes the password of a signed-in owner; every other session of the account ends. */
export async function changePassword(
  deps: AccountDeps,
  owner: { id: string; tokenHash: string },
  input: { currentPassword: string; password: string },
): Promise<void> {
  const notRight = () =>
    new HttpError(400, 'VALIDATION_FAILED', 'currentPassword: Your current password is not right');
  const current = await repo.findPasswordHash(deps.db, owner.id);
  if (!current || !(await verifyPassword(current, input.currentPassword))) throw notRight();
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    // Changed by another session since it was checked (two changes racing): the one that lands first wins, and
    // this one is told its current password is no longer the current one.
    if (!(await repo.replacePasswordHash(tx, owner.id, current, passwordHash))) throw notRight();
    await repo.deleteOtherSessions(tx, owner.id, owner.tokenHash);
  });
}
