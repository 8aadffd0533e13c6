import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { ResetKeySchema, ResetPasswordBodySchema, type ResetPasswordBody } from '#common/accounts.ts';
import { useResetPassword } from '../api/accounts.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { Form } from '../ui/form.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { BackToLogin, NewPasswordSubmit } from './new-password-fields.tsx';
import { PASSWORD_UPDATED_NOTICE, showResetFailure } from './reset-failure.ts';

const FIELDS = ['key', 'password', 'confirmPassword'] as const;

/** The link's secret: in the fragment (`#key=…`), which the browser never sends to a server. */
const keyOf = (hash: string) => new URLSearchParams(hash.replace(/^#/, '')).get('key') ?? '';

/** /resetPassword#key=… (the reset mail's link): a new password, with no code to type. */
export function ResetPasswordPage() {
  useScreenTitle('Reset your password');
  const key = keyOf(useLocation().hash);
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [failure, setFailure] = useState<string | null>(null);
  const [isLinkDead, setLinkDead] = useState(false);
  const form = useForm<ResetPasswordBody>({
    resolver: zodResolver(ResetPasswordBodySchema),
    defaultValues: { key, password: '', confirmPassword: '' },
  });
  const isLinkBroken = isLinkDead || !ResetKeySchema.safeParse(key).success;

  const onSubmit = async (body: ResetPasswordBody) => {
    setFailure(null);
    try {
      await reset.mutateAsync(body);
      navigate(paths.login.href(), { replace: true, state: { notice: PASSWORD_UPDATED_NOTICE } });
    } catch (error) {
      showResetFailure(error, {
        refused: { code: 'LINK_INVALID', show: () => setLinkDead(true) },
        fields: FIELDS,
        onField: (field, message) =>
          field === 'key' ? setLinkDead(true) : form.setError(field, { message }, { shouldFocus: true }),
        inAlert: setFailure,
      });
    }
  };

  if (isLinkBroken)
    // Nothing to type on a dead link: only the way to a new one.
    return (
      <AuthLayout>
        <h1>Set a new password</h1>
        <Alert tone="error">This reset link is wrong, expired or already used.</Alert>
        <p>Ask for a new reset mail: its link and its code work for 10 minutes.</p>
        <Link className="button button-primary button-block" to={paths.forgetPassword.href()}>
          Request a new one
        </Link>
        <BackToLogin />
      </AuthLayout>
    );

  return (
    <AuthLayout>
      <h1>Set a new password</h1>
      <p className="muted">Choose a new password for your Easy Form account.</p>
      <Form form={form} onSubmit={onSubmit}>
        {failure ? <Alert tone="error">{failure}</Alert> : null}
        <NewPasswordSubmit />
      </Form>
      <BackToLogin />
    </AuthLayout>
  );
}
