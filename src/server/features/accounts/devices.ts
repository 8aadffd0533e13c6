// Device cookies (OWASP, "Slow Brute Force" / device cookies): a browser that has logged in to an account before
// is recognised at login, so other people's wrong guesses at the address never lock its owner out of it.
// docs/decisions/004-account-rate-limits.md.
import { DEVICE_DAYS } from '#common/accounts.ts';
import type { Queryable } from '../../db/database.ts';
import { digest, isSecretShaped, newSecret } from '../../http/crypto.ts';
import { insertTrustedDevice, isTrustedDevice, renewTrustedDevice } from './device-repository.ts';

const DEVICE_COOKIE = 'easyform_device';
/** Browsers (and cookie-less logins) remembered per account; the ones used least recently go first. */
const DEVICES_KEPT = 50;

/** The device secret the browser sent, or null when it sent none or one not of our making. */
export function readDeviceCookie(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== DEVICE_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    return isSecretShaped(value) ? value : null;
  }
  return null;
}

/**
 * The Set-Cookie value for a device secret: sent back only to the login route, never readable by the page's
 * script, not sent along from other sites' forms, and over https only when the app is served over https.
 */
export function deviceCookie(secret: string, isSecure: boolean): string {
  const attributes = [
    'Path=/api/v1/login',
    `Max-Age=${DEVICE_DAYS * 24 * 60 * 60}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  return [`${DEVICE_COOKIE}=${secret}`, ...attributes, ...(isSecure ? ['Secure'] : [])].join('; ');
}

/** The digest of the device cookie the request carries when it is a live device of the account under `email`. */
export async function trustedDeviceOf(
  db: Queryable,
  cookieHeader: string | undefined,
  email: string,
): Promise<string | null> {
  const secret = readDeviceCookie(cookieHeader);
  if (!secret) return null;
  const tokenHash = digest(secret);
  return (await isTrustedDevice(db, tokenHash, email)) ? tokenHash : null;
}

/**
 * After the account's password (or a reset) was proven: the browser's device secret, renewed when it already is
 * one of the account's, else a new one.
 */
export async function rememberDevice(
  db: Queryable,
  accountId: string,
  cookieHeader: string | undefined,
): Promise<string> {
  const presented = readDeviceCookie(cookieHeader);
  if (presented && (await renewTrustedDevice(db, digest(presented), accountId, DEVICE_DAYS)))
    return presented;
  const secret = newSecret();
  await insertTrustedDevice(db, accountId, digest(secret), DEVICE_DAYS, DEVICES_KEPT);
  return secret;
}
