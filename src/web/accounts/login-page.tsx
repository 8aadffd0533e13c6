import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginBodySchema, type LoginBody } from '#common/accounts.ts';
import { fetchProfile, useLogIn, useResendVerification } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { readSession, saveProfile, startSession } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { PasswordField } from '../ui/password-field.tsx';
import { TextField } from '../ui/text-field.tsx';

/** /login (spec §2): email and password; the spec's messages for 404, 405 and 406. */
export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const logIn = useLogIn();
  const resend = useResendVerification();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<LoginBody>({
    resolver: zodResolver(LoginBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  if (readSession()) return <Navigate to={paths.createPage.href()} replace />;

  const onSubmit = form.handleSubmit(async (body) => {
    setFailure(null);
    resend.reset();
    try {
      const { token, id } = await logIn.mutateAsync(body);
      startSession(id, token);
      saveProfile(await fetchProfile(id));
      const next = search.get('next');
      navigate(next?.startsWith('/') && !next.startsWith('//') ? next : paths.createPage.href(), {
        replace: true,
      });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(0, 'UNKNOWN', 'Something went wrong');
      if (apiError.field === 'email' || apiError.field === 'password') {
        form.setError(apiError.field, { message: apiError.detail });
      } else {
        setFailure(apiError);
      }
    }
  });

  return (
    <AuthLayout>
      <h1>Log in</h1>
      <p className="muted">Welcome back. Your forms and responses are waiting.</p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <form onSubmit={onSubmit} noValidate>
        {failure ? (
          <Alert tone="error">
            <p>{failure.message}</p>
            {failure.status === 406 ? (
              <p>
                {resend.isSuccess ? (
                  'We sent a new verification link. Check your inbox.'
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    disabled={resend.isPending}
                    onClick={() => resend.mutate({ email: form.getValues('email') })}
                  >
                    {resend.isPending ? 'Sending…' : 'Resend verification email'}
                  </button>
                )}
              </p>
            ) : null}
            {failure.status === 404 ? (
              <p>
                New here? <Link to={paths.signUp.href()}>Create an account</Link>.
              </p>
            ) : null}
          </Alert>
        ) : null}
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
          autoComplete="current-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <div className="row-between">
          <label className="checkbox">
            <input type="checkbox" name="terms" />
            <span>
              I agree to the <Link to={paths.notReady.href()}>Terms</Link> and{' '}
              <Link to={paths.notReady.href()}>Privacy Policy</Link>
            </span>
          </label>
          <Link to={paths.forgetPassword.href()}>Forgot Password?</Link>
        </div>
        <button
          type="submit"
          className="button button-primary button-block"
          disabled={form.formState.isSubmitting}
        >
          {form.formState.isSubmitting ? 'Logging in…' : 'Log In'}
        </button>
      </form>
      <p className="auth-footer">
        Don&apos;t have an account? <Link to={paths.signUp.href()}>Sign Up</Link>
      </p>
    </AuthLayout>
  );
}
