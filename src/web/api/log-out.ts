import { paths } from '../paths.ts';
import { logOut } from './accounts.ts';
import { endSession } from './session.ts';

/**
 * Revokes the token on the server (best effort), clears storage and goes home (docs/product.md, Statuses: the
 * session).
 */
export async function logOutAndLeave(): Promise<void> {
  await logOut().catch(() => undefined);
  endSession();
  window.location.assign(paths.home.href());
}
