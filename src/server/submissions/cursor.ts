import { HttpError } from '../errors.ts';
import type { Cursor } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An opaque page cursor: where the previous page ended, as (created_at, id). */
export const encodeCursor = (c: { createdAt: Date; id: string }): string =>
  Buffer.from(`${c.createdAt.toISOString()}|${c.id}`).toString('base64url');

export function decodeCursor(text: string, param: string): Cursor {
  const [createdAt = '', id = ''] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (Number.isNaN(Date.parse(createdAt)) || !UUID.test(id)) {
    throw new HttpError(400, 'VALIDATION_FAILED', `${param}: Not a valid page cursor`);
  }
  return { createdAt, id };
}
