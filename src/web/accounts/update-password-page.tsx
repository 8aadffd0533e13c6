import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { OTP_LENGTH, OTP_MINUTES, UpdatePasswordBodySchema } from '#common/accounts.ts';
import { useUpdatePassword } from '../api/accounts.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { BackToLogin, NewPasswordSubmit } from './new-password-fields.tsx';
import { PASSWORD_UPDATED_NOTICE, showResetFailure } from './reset-failure.ts';

const FIELDS = ['otp', 'password', 'confirmPassword'] as const;
const CODE_INVALID = 'That code is wrong, expired or already used. Request a new one.';

/** /updatePassword/{email} (docs/product.md, Accounts): the code from the mail and a new password. */
export function UpdatePasswordPage() {
  useScreenTitle('Choose a new password');
  const email = useParams().email ?? '';
  const navigate = useNavigate();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  const update = useUpdatePassword();
  const [failure, setFailure] = useState<string | null>(null);
  // The email rides along as a value without an input, so the whole body is checked by the server's schema.
  const form = useForm({
    resolver: zodResolver(UpdatePasswordBodySchema),
    defaultValues: { email, otp: '', password: '', confirmPassword: '' },
  });
  const { errors } = form.formState;

  const onSubmit = async (body: Parameters<typeof update.mutateAsync>[0]) => {
    setFailure(null);
    try {
      await update.mutateAsync(body);
      navigate(paths.login.href(), { replace: true, state: { notice: PASSWORD_UPDATED_NOTICE } });
    } catch (error) {
      showResetFailure(error, {
        refused: {
          code: 'CODE_INVALID',
          show: () => form.setError('otp', { message: CODE_INVALID }, { shouldFocus: true }),
        },
        fields: FIELDS,
        onField: (field, message) => form.setError(field, { message }, { shouldFocus: true }),
        inAlert: setFailure,
      });
    }
  };

  return (
    <AuthLayout>
      <h1>Set a new password</h1>
      <p className="muted">
        We sent a {OTP_LENGTH}-digit code to <strong>{email}</strong>. It is valid for {OTP_MINUTES} minutes.
        You can also open the link in that mail instead.
      </p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <Form form={form} onSubmit={onSubmit}>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        {errors.email ? (
          <Alert tone="error">
            This reset link has no valid email address.{' '}
            <Link to={paths.forgetPassword.href()}>Start again</Link>.
          </Alert>
        ) : null}
        <Field
          name="otp"
          label="One-time code"
          className="input-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          pattern="[0-9]*"
          hint={
            <>
              Didn&apos;t get it, or did it expire?{' '}
              <Link to={paths.forgetPassword.href()}>Request a new code</Link>.
            </>
          }
        />
        <NewPasswordSubmit />
      </Form>
      <BackToLogin />
    </AuthLayout>
  );
}
