import { PASSWORD_MIN_LENGTH } from '#common/accounts.ts';
import { Field } from '../ui/field.tsx';

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
