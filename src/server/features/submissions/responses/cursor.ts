import { HttpError } from '../../../http/errors.ts';
import type { Cursor } from './list-repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Exactly what encodeCursor writes, years 0001-9999. Date.parse alone accepts '1', '+275760-09-13' and other text
// that PostgreSQL then refuses as a timestamptz (year 0000 too), which answered 500.
const ISO_INSTANT = /^(?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** An opaque page cursor: where the previous page ended, as (created_at, id). */
export const encodeCursor = (c: { createdAt: Date; id: string }): string =>
  Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');

export function decodeCursor(text: string, param: string): Cursor {
  const invalid = () => new HttpError(400, 'VALIDATION_FAILED', `${param}: Not a valid page cursor`);
  // Buffer.from skips characters outside the alphabet, so text with them would decode to something else.
  if (!BASE64URL.test(text)) throw invalid();
  const parts = Buffer.from(text, 'base64url').toString('utf8').split('|');
  const [createdAt = '', id = ''] = parts;
  if (parts.length !== 2 || !ISO_INSTANT.test(createdAt) || !UUID.test(id)) throw invalid();
  // The shape can still name a day that does not exist (2026-02-30), which PostgreSQL would refuse.
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime()) || date.toISOString() !== createdAt) throw invalid();
  return { createdAt, id };
}
