import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { ApiError } from '../api/client.ts';

/** What the login page says after either way of resetting a password. */
export const PASSWORD_UPDATED_NOTICE = 'Password updated — log in with your new password.';

type Show<F extends string> = {
  /** The error code the server gives a refused code or link, and how the page says so. */
  refused: { code: string; show: () => void };
  fields: readonly F[];
  onField: (field: F, message: string) => void;
  inAlert: (message: string) => void;
};

/**
 * Shows a failed password reset where it happened: a refused code or link its own way, a field's error on the
 * field, and anything else in the form's alert (the server's words only for 429, offline and 5xx).
 */
export function showResetFailure<F extends string>(error: unknown, show: Show<F>): void {
  if (!(error instanceof ApiError)) return show.inAlert(ACCOUNT_MESSAGES.passwordUpdateFailed);
  const field = show.fields.find((f) => f === error.field);
  if (error.code === show.refused.code) show.refused.show();
  else if (field) show.onField(field, error.detail);
  else {
    const isExplained = error.status === 429 || error.status === 0 || error.status >= 500;
    show.inAlert(isExplained ? error.message : ACCOUNT_MESSAGES.passwordUpdateFailed);
  }
}
