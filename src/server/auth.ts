import type { FastifyRequest } from 'fastify';
import { findOwnerBySession } from './accounts/repository.ts';
import { digest } from './accounts/secrets.ts';
import { HttpError } from './errors.ts';
import type { Owner } from './fastify-types.ts';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** `Authorization: Bearer <token>`, or the bare token as the spec's client sends it. */
export function readToken(header: string | undefined): string | null {
  const value = header?.trim().replace(/^bearer\s+/i, '') ?? '';
  return TOKEN_PATTERN.test(value) ? value : null;
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
