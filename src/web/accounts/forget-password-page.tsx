import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ACCOUNT_MESSAGES, EmailBodySchema, OTP_LENGTH, type EmailBody } from '#common/accounts.ts';
import { useSendOtp } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { SubmitButton } from './submit-button.tsx';

/** /forgetPassword (docs/product.md, Accounts): mails a one-time code, then on to /updatePassword/{email}. */
export function ForgetPasswordPage() {
  useScreenTitle('Forgot your password');
  const navigate = useNavigate();
  const sendOtp = useSendOtp();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EmailBody>({ resolver: zodResolver(EmailBodySchema), defaultValues: { email: '' } });

  const onSubmit = async ({ email }: EmailBody) => {
    setFailure(null);
    try {
      await sendOtp.mutateAsync({ email });
      navigate(paths.updatePassword.href(email), { state: { notice: ACCOUNT_MESSAGES.otpSent } });
    } catch (error) {
      const isExplained = error instanceof ApiError && (error.status === 429 || error.status === 0);
      setFailure(isExplained ? error.message : ACCOUNT_MESSAGES.otpFailed);
    }
  };

  return (
    <AuthLayout>
      <h1>Forgot your password?</h1>
      <p className="muted">
        Enter your account&apos;s email and we&apos;ll send you a link and a {OTP_LENGTH}-digit code to set a
        new one.
      </p>
      <Form form={form} onSubmit={onSubmit}>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <Field name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
        <SubmitButton busyLabel="Sending…">Send Verification Otp</SubmitButton>
      </Form>
      <p className="auth-footer">
        <Link to={paths.login.href()}>Go to Login</Link>
      </p>
    </AuthLayout>
  );
}
