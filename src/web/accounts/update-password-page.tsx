import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { ACCOUNT_MESSAGES, OtpSchema, PasswordSchema } from '#common/accounts.ts';
import { useUpdatePassword } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { PasswordField } from '../ui/password-field.tsx';
import { TextField } from '../ui/text-field.tsx';

const ResetFormSchema = z
  .object({ otp: OtpSchema, password: PasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, {
    message: 'Passwords do not match',
    path: ['confirmPassword'],
  });
type ResetForm = z.infer<typeof ResetFormSchema>;
const FIELDS = ['otp', 'password', 'confirmPassword'] as const;

/** /updatePassword/{email} (spec §2): the code from the mail and a new password. */
export function UpdatePasswordPage() {
  const email = useParams().email ?? '';
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const update = useUpdatePassword();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<ResetForm>({
    resolver: zodResolver(ResetFormSchema),
    defaultValues: { otp: '', password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await update.mutateAsync({ email, ...values });
      navigate(paths.login.href(), {
        replace: true,
        state: { notice: `${ACCOUNT_MESSAGES.passwordUpdated}. Log in with your new password.` },
      });
    } catch (error) {
      if (!(error instanceof ApiError)) return setFailure(ACCOUNT_MESSAGES.passwordUpdateFailed);
      const field = FIELDS.find((f) => f === error.field);
      if (error.code === 'CODE_INVALID') form.setError('otp', { message: error.message });
      else if (field) form.setError(field, { message: error.detail });
      else
        setFailure(
          error.status === 429 || error.status >= 500 ? error.message : ACCOUNT_MESSAGES.passwordUpdateFailed,
        );
    }
  });

  return (
    <AuthLayout>
      <h1>Set a new password</h1>
      <p className="muted">
        We sent a 6-digit code to <strong>{email}</strong>. It is valid for 10 minutes.
      </p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <form onSubmit={onSubmit} noValidate>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <TextField
          label="One-time code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          pattern="[0-9]*"
          error={errors.otp?.message}
          hint={
            <>
              Didn&apos;t get it? <Link to={paths.forgetPassword.href()}>Request a new code</Link>.
            </>
          }
          {...form.register('otp')}
        />
        <PasswordField
          label="New Password"
          autoComplete="new-password"
          hint="At least 8 characters."
          error={errors.password?.message}
          {...form.register('password')}
        />
        <PasswordField
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <button type="submit" className="button button-primary button-block" disabled={isSubmitting}>
          {isSubmitting ? 'Updating…' : 'Update Password'}
        </button>
      </form>
      <p className="auth-footer">
        <Link to={paths.login.href()}>Back to Login</Link>
      </p>
    </AuthLayout>
  );
}
