import { Link } from 'react-router';
import { useResendVerification } from '../api/accounts.ts';
import type { ApiError } from '../api/client.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';

/**
 * Why the login failed, in the product's words (404, 405, 406, docs/product.md), with the way on: sign up for an unknown email,
 * a fresh verification link for an unverified one.
 */
export function LoginFailure({ error, email }: { error: ApiError; email: string }) {
  const resend = useResendVerification();
  return (
    <Alert tone="error">
      <p>{error.message}</p>
      {error.status === 404 ? (
        <p>
          New here? <Link to={paths.signUp.href()}>Create an account</Link>.
        </p>
      ) : null}
      {error.status === 405 ? (
        <p>
          Forgotten it? <Link to={paths.forgetPassword.href()}>Reset your password</Link>.
        </p>
      ) : null}
      {error.status === 406 ? (
        <p>
          {resend.isSuccess ? (
            <span role="status">We sent a new verification link to {email}. Check your inbox.</span>
          ) : (
            <button
              type="button"
              className="link-button"
              disabled={resend.isPending}
              onClick={() => resend.mutate({ email })}
            >
              {resend.isPending ? 'Sending…' : 'Resend verification email'}
            </button>
          )}
          {resend.isError ? <span> {resend.error.message}</span> : null}
        </p>
      ) : null}
    </Alert>
  );
}
