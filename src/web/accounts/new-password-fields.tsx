import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '#common/accounts.ts';
import { paths } from '../paths.ts';
import { Field } from '../ui/field.tsx';
import { SubmitButton } from './submit-button.tsx';

/** A new password, with the rule it must meet, and its confirmation: what signing up and a reset both ask. */
export function NewPasswordFields({ label }: { label: string }) {
  return (
    <>
      <Field
        name="password"
        label={label}
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
      />
      <Field name="confirmPassword" label="Confirm Password" type="password" autoComplete="new-password" />
    </>
  );
}

/** The end of a password reset's form: the new password, its confirmation and the button. */
export function NewPasswordSubmit() {
  return (
    <>
      <NewPasswordFields label="New Password" />
      <SubmitButton busyLabel="Updating…">Update Password</SubmitButton>
    </>
  );
}

/** The footer of the reset screens. */
export function BackToLogin() {
  return (
    <p className="auth-footer">
      <Link to={paths.login.href()}>Back to Login</Link>
    </p>
  );
}
