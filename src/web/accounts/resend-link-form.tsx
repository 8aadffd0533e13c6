import { useState } from 'react';
import { useResendVerification } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { Alert } from '../ui/alert.tsx';
import { TextField } from '../ui/text-field.tsx';

/** Asks for a fresh verification link; the answer is the same whether or not the address has an account. */
export function ResendLinkForm({ initialEmail, askEmail }: { initialEmail: string; askEmail: boolean }) {
  const [email, setEmail] = useState(initialEmail);
  const resend = useResendVerification();
  const failure =
    resend.error instanceof ApiError ? resend.error.message : resend.error ? 'Something went wrong' : null;
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        resend.mutate({ email });
      }}
    >
      {askEmail ? (
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      ) : null}
      {resend.isSuccess ? (
        <Alert tone="success">If {email} has an account waiting, a new link is on its way.</Alert>
      ) : null}
      {failure ? <Alert tone="error">{failure}</Alert> : null}
      <button
        type="submit"
        className="button button-secondary button-block"
        disabled={resend.isPending || !email}
      >
        {resend.isPending ? 'Sending…' : 'Resend email'}
      </button>
    </form>
  );
}
