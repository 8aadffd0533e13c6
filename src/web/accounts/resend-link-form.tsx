import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { EmailBodySchema, type EmailBody } from '#common/accounts.ts';
import { useResendVerification } from '../api/accounts.ts';
import { Alert } from '../ui/alert.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';

type Props = { initialEmail: string; askEmail: boolean; label?: string };

/** Asks for a fresh verification link; the answer is the same whether or not the address has an account. */
export function ResendLinkForm({ initialEmail, askEmail, label = 'Resend email' }: Props) {
  const resend = useResendVerification();
  const form = useForm<EmailBody>({
    resolver: zodResolver(EmailBodySchema),
    defaultValues: { email: initialEmail },
  });
  return (
    <Form form={form} onSubmit={(body) => resend.mutateAsync(body).catch(() => undefined)}>
      {askEmail ? (
        <Field name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
      ) : null}
      {resend.isSuccess ? (
        <Alert tone="success">
          If {resend.variables.email} has an account waiting for verification, a new link is on its way.
        </Alert>
      ) : null}
      {resend.isError ? <Alert tone="error">{resend.error.message}</Alert> : null}
      <button type="submit" className="button button-secondary button-block" disabled={resend.isPending}>
        {resend.isPending ? 'Sending…' : label}
      </button>
    </Form>
  );
}
