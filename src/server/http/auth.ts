import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { digest, isSecretShaped } from './crypto.ts';
import { HttpError } from './errors.ts';
import type { Owner } from './fastify-types.ts';

/** `Authorization: Bearer <token>`, or the bare token as the original client sends it (docs/product.md). */
export function readToken(header: string | undefined): string | null {
  const value = header?.trim().replace(/^bearer\s+/i, '') ?? '';
  return isSecretShaped(value) ? value : null;
}

/** The account a live session belongs to (the accounts feature writes sessions; this only reads them). */
async function findOwnerBySession(db: Queryable, tokenHash: string): Promise<Owner | null> {
  const [row] = await db.query<{ id: string; full_name: string; email: string }>(
    `select a.id, a.full_name, a.email from sessions s join accounts a on a.id = s.account_id
      where s.token_hash = $1 and s.expires_at > now()`,
    [tokenHash],
  );
  return row ? { id: row.id, fullName: row.full_name, email: row.email, tokenHash } : null;
}

const unauthorized = () => new HttpError(401, 'UNAUTHORIZED', 'Log in to continue');

/** Hook for owner routes: sets request.owner or answers 401. */
export async function authenticate(request: FastifyRequest): Promise<void> {
  const token = readToken(request.headers.authorization);
  if (!token) throw unauthorized();
  const owner = await findOwnerBySession(request.server.db, digest(token));
  if (!owner) throw unauthorized();
  request.owner = owner;
}

/** The owner set by `authenticate`; only call it in routes that run that hook. */
export function ownerOf(request: FastifyRequest): Owner {
  if (!request.owner) throw unauthorized();
  return request.owner;
}
