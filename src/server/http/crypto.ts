// Every secret, signature and hash the server makes, in one module no feature owns: password hashes, session and
// link secrets, one-time codes, the keys in the settings table and the HMACs made with them (signed file URLs,
// client-address keys, webhook signatures). docs/decisions/006-sessions-and-secrets.md.
import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { OTP_LENGTH } from '#common/accounts.ts';

// OWASP Password Storage Cheat Sheet: argon2id (the library's default algorithm), m = 19 MiB, t = 2, p = 1.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

let hashes = 0;
export const hashPassword = (password: string): Promise<string> => {
  hashes++;
  return hash(password, ARGON2_OPTIONS);
};
/** How many passwords this process has hashed: the costly work a request can ask of it (tests watch it). */
export const passwordsHashed = () => hashes;

export const verifyPassword = (passwordHash: string, password: string): Promise<boolean> =>
  verify(passwordHash, password).catch(() => false);

/** `bytes` from the cryptographic random source, URL-safe: names nobody can guess (files, staging copies). */
export const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** A 256-bit random secret for session tokens, verification links and upload delete ids, URL-safe. */
export const newSecret = (): string => randomToken(32);

/** Whether `value` has the shape of a `newSecret()`: anything else is refused before a lookup. */
export const isSecretShaped = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);

/** A 256-bit key for HMACs, as kept in the settings table. */
export const newKey = (): string => randomBytes(32).toString('hex');

/** Secrets are stored only as this digest; they carry 256 bits (or expire in minutes), so no salt or stretching. */
export const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The SHA-256 of a text as a Content-Security-Policy source (`'sha256-…'`). */
export const cspHashOf = (text: string): string =>
  `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** A numeric one-time code from the cryptographic random source. */
export const newOtp = (): string => String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');

/** HMAC-SHA256 of `message` under `key`, URL-safe. */
export const sign = (key: string, message: string): string =>
  createHmac('sha256', key).update(message).digest('base64url');

/** A webhook delivery's signature (docs/decisions/023-webhooks.md): hex HMAC-SHA256 of `<t>.<body>`, as Stripe does. */
export const webhookSignature = (secret: string, timestamp: number, body: string): string =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/** Whether `signature` is `sign(key, message)`, compared in constant time. */
export function verifySignature(key: string, message: string, signature: string): boolean {
  const expected = Buffer.from(sign(key, message));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
