import { logOut } from './accounts.ts';
import { endSession } from './session.ts';

/** Revokes the token on the server (best effort), clears storage and goes home (spec §4). */
export async function logOutAndLeave(): Promise<void> {
  await logOut().catch(() => undefined);
  endSession();
  window.location.assign('/');
}
