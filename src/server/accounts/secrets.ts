import { createHash, randomBytes, randomInt } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { OTP_LENGTH } from '#common/accounts.ts';

// OWASP Password Storage Cheat Sheet: argon2id (the library's default algorithm), m = 19 MiB, t = 2, p = 1.
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export const hashPassword = (password: string): Promise<string> => hash(password, ARGON2_OPTIONS);

export const verifyPassword = (passwordHash: string, password: string): Promise<boolean> =>
  verify(passwordHash, password).catch(() => false);

/** A 256-bit random secret for session tokens and verification links, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Secrets are stored only as this digest; they carry 256 bits (or expire in minutes), so no salt or stretching. */
export const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A numeric one-time code from the cryptographic random source. */
export const newOtp = (): string => String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
