import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import {
  ACCOUNT_MESSAGES,
  SignUpBodySchema,
  signUpSuccessMessage,
  type SignUpBody,
} from '#common/accounts.ts';
import { useSignUp } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { rememberSignUpEmail } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { PasswordField } from '../ui/password-field.tsx';
import { TextField } from '../ui/text-field.tsx';

const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'] as const;
const isField = (name: string | null): name is (typeof FIELDS)[number] => FIELDS.includes(name as never);

/** /signUp (spec §2): Name, Email, Password, Confirm Password; a 203 goes on to /verification. */
export function SignUpPage() {
  const navigate = useNavigate();
  const signUp = useSignUp();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<SignUpBody>({
    resolver: zodResolver(SignUpBodySchema),
    defaultValues: { fullName: '', email: '', password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (body) => {
    setFailure(null);
    try {
      const { data } = await signUp.mutateAsync(body);
      rememberSignUpEmail(data.email);
      navigate(paths.verification.href(), { state: { notice: signUpSuccessMessage(data.fullName) } });
    } catch (error) {
      const apiError =
        error instanceof ApiError ? error : new ApiError(0, 'UNKNOWN', ACCOUNT_MESSAGES.signUpFailed);
      if (isField(apiError.field)) form.setError(apiError.field, { message: apiError.detail });
      else setFailure(apiError);
    }
  });

  return (
    <AuthLayout>
      <h1>Create your account</h1>
      <p className="muted">Build your first form in minutes. Free, and yours to host.</p>
      <form onSubmit={onSubmit} noValidate>
        {failure ? (
          <Alert tone="error">
            {failure.status === 409 ? (
              <p>
                {failure.message} <Link to={paths.login.href()}>Log in</Link> or{' '}
                <Link to={paths.forgetPassword.href()}>reset your password</Link>.
              </p>
            ) : (
              <p>
                {failure.status >= 500 || failure.status === 0
                  ? failure.message
                  : ACCOUNT_MESSAGES.signUpFailed}
              </p>
            )}
          </Alert>
        ) : null}
        <TextField
          label="Name"
          autoComplete="name"
          error={errors.fullName?.message}
          {...form.register('fullName')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <PasswordField
          label="Password"
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
          {isSubmitting ? 'Creating your account…' : 'Create Account'}
        </button>
      </form>
      <p className="auth-footer">
        Already have an account? <Link to={paths.login.href()}>Log in</Link>
      </p>
    </AuthLayout>
  );
}
