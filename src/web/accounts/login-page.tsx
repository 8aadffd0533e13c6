import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoginBodySchema, type LoginBody } from '#common/accounts.ts';
import { fetchProfile, useLogIn } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { isSitePath, readSession, saveProfile, startSession, takeFirstPage } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { LoginFailure } from './login-failure.tsx';
import { SubmitButton } from './submit-button.tsx';

/** Where a login goes: `?next=`, else the page chosen before signing up, else the create page; only on this site. */
function pageAfterLogin(next: string | null): string {
  const chosen = takeFirstPage();
  if (isSitePath(next)) return next;
  return isSitePath(chosen) ? chosen : paths.createPage.href();
}

/** /login (docs/product.md, Accounts): email and password; the kept login messages for 404, 405 and 406. */
export function LoginPage() {
  useScreenTitle('Log in');
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const notice = (location.state as { notice?: string } | null)?.notice;
  const logIn = useLogIn();
  const [failure, setFailure] = useState<{ error: ApiError; email: string } | null>(null);
  const form = useForm<LoginBody>({
    resolver: zodResolver(LoginBodySchema),
    defaultValues: { email: '', password: '' },
  });

  // With a stored session, /login shows the owner's page instead (docs/product.md, Accounts).
  if (readSession()) return <Navigate to={paths.createPage.href()} replace />;

  const onSubmit = async (body: LoginBody) => {
    setFailure(null);
    try {
      // Only the 201 stores the session, fetches the profile and moves on (docs/product.md, Statuses: the
      // session).
      const { token, id } = await logIn.mutateAsync(body);
      startSession(id, token);
      saveProfile(await fetchProfile(id));
      navigate(pageAfterLogin(search.get('next')), { replace: true });
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError(0, 'UNKNOWN', 'Something went wrong');
      if (apiError.field === 'email' || apiError.field === 'password') {
        form.setError(apiError.field, { message: apiError.detail }, { shouldFocus: true });
      } else {
        setFailure({ error: apiError, email: body.email });
      }
    }
  };

  return (
    <AuthLayout>
      <h1>Log in</h1>
      <p className="muted">Welcome back. Your forms and responses are waiting.</p>
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <Form form={form} onSubmit={onSubmit}>
        {failure ? <LoginFailure error={failure.error} email={failure.email} /> : null}
        <Field name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
        <Field name="password" label="Password" type="password" autoComplete="current-password" />
        <div className="row-between">
          {/* Shown unchecked and not enforced (docs/product.md, Accounts). */}
          <label className="checkbox">
            <input type="checkbox" name="terms" />
            <span>
              I agree to the <Link to={paths.terms.href()}>Terms</Link> and{' '}
              <Link to={paths.privacy.href()}>Privacy Policy</Link>
            </span>
          </label>
          <Link to={paths.forgetPassword.href()}>Forgot Password?</Link>
        </div>
        <SubmitButton busyLabel="Logging in…">Log In</SubmitButton>
      </Form>
      <p className="auth-footer">
        Don&apos;t have an account?{' '}
        <Link to={paths.signUp.href(search.get('next') ?? undefined)}>Sign Up</Link>
      </p>
    </AuthLayout>
  );
}
