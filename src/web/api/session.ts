import type { Profile } from '#common/accounts.ts';
import { paths } from '../paths.ts';

/** The owner's local storage keys (docs/product.md, Browser storage). `easyId` marks a signed-in browser. */
const KEYS = {
  easyId: 'easyId',
  id: 'id',
  token: 'token',
  profile: 'myProfile',
  signUpEmail: 'signUpmail',
  firstPage: 'firstPage',
} as const;

export type Session = { id: string; token: string; profile: Profile | null };

export function readSession(): Session | null {
  // No storage at all: the build drawing '/' (prerender.tsx), which draws what a visitor sees.
  if (typeof localStorage === 'undefined') return null;
  const id = localStorage.getItem(KEYS.id);
  const token = localStorage.getItem(KEYS.token);
  if (!localStorage.getItem(KEYS.easyId) || !id || !token) return null;
  return { id, token, profile: readProfile() };
}

function readProfile(): Profile | null {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEYS.profile) ?? 'null');
    if (parsed && typeof parsed === 'object' && 'fullName' in parsed && 'email' in parsed) {
      return { fullName: String(parsed.fullName), email: String(parsed.email) };
    }
  } catch {
    // A corrupt copy is refetched from the server.
  }
  return null;
}

export function startSession(id: string, token: string): void {
  localStorage.setItem(KEYS.id, id);
  localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.easyId, id);
}

export const saveProfile = (profile: Profile): void =>
  localStorage.setItem(KEYS.profile, JSON.stringify(profile));

/** Log Out clears all local storage (docs/product.md, Statuses: the session). */
export function endSession(): void {
  localStorage.clear();
  sessionStorage.clear();
}

/** A token the server no longer accepts: the session ends, and the login page brings the owner back to this page. */
export function endSessionAndSignIn(): void {
  endSession();
  window.location.assign(paths.login.href(window.location.pathname));
}

export const rememberSignUpEmail = (email: string): void => sessionStorage.setItem(KEYS.signUpEmail, email);
export const signUpEmail = (): string | null => sessionStorage.getItem(KEYS.signUpEmail);

/** Only a path on this site: `?next=//evil.example` must not send a fresh session elsewhere. */
export const isSitePath = (next: string | null | undefined): next is string =>
  !!next?.startsWith('/') && !next.startsWith('//');

/**
 * The page a new owner chose before signing up (a template's create page), kept in local storage so that the first
 * login reaches it even when the mailed link opens in another tab.
 */
export function rememberFirstPage(next: string | null): void {
  if (isSitePath(next)) localStorage.setItem(KEYS.firstPage, next);
}

/** The page kept at sign-up, once: reading it forgets it. */
export function takeFirstPage(): string | null {
  const next = localStorage.getItem(KEYS.firstPage);
  localStorage.removeItem(KEYS.firstPage);
  return next;
}
