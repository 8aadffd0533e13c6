import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import {
  ACCOUNT_MESSAGES,
  SignUpBodySchema,
  signUpSuccessMessage,
  type SignUpBody,
} from '#common/accounts.ts';
import { useSignUp } from '../api/accounts.ts';
import { ApiError } from '../api/client.ts';
import { rememberFirstPage, rememberSignUpEmail } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { AuthLayout } from '../ui/auth-layout.tsx';
import { Field } from '../ui/field.tsx';
import { Form } from '../ui/form.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { SubmitButton } from './submit-button.tsx';

const FIELDS = ['fullName', 'email', 'password', 'confirmPassword'] as const;
const isField = (name: string | null) => FIELDS.find((field) => field === name);

/**
 * /signUp (docs/product.md, Accounts): Name, Email, Password, Confirm Password; a 203 goes on to
 * /verification. With `?next=` (a template chosen by a visitor), the first login after the mailed link goes there.
 */
export function SignUpPage() {
  useScreenTitle('Sign up');
  const navigate = useNavigate();
  const next = useSearchParams()[0].get('next');
  const signUp = useSignUp();
  const [failure, setFailure] = useState<ApiError | null>(null);
  const form = useForm<SignUpBody>({
    resolver: zodResolver(SignUpBodySchema),
    defaultValues: { fullName: '', email: '', password: '', confirmPassword: '' },
  });

  const onSubmit = async (body: SignUpBody) => {
    setFailure(null);
    try {
      const { data } = await signUp.mutateAsync(body);
      rememberSignUpEmail(data.email);
      rememberFirstPage(next);
      navigate(paths.verification.href(), { state: { notice: signUpSuccessMessage(data.fullName) } });
    } catch (error) {
      const apiError =
        error instanceof ApiError ? error : new ApiError(0, 'UNKNOWN', ACCOUNT_MESSAGES.signUpFailed);
      const field = isField(apiError.field);
      if (field) form.setError(field, { message: apiError.detail }, { shouldFocus: true });
      else setFailure(apiError);
    }
  };

  return (
    <AuthLayout>
      <h1>Create your account</h1>
      <p className="muted">Build your first form in minutes. Free, and yours to host.</p>
      <Form form={form} onSubmit={onSubmit}>
        {failure ? <SignUpFailure failure={failure} /> : null}
        <Field name="fullName" label="Name" autoComplete="name" />
        <Field name="email" label="Email" type="email" autoComplete="email" inputMode="email" />
        <NewPasswordFields label="Password" />
        <SubmitButton busyLabel="Creating your account…">Create Account</SubmitButton>
      </Form>
      <p className="auth-footer">
        Already have an account? <Link to={paths.login.href(next ?? undefined)}>Log in</Link>
      </p>
    </AuthLayout>
  );
}

/** Why the account was not created, and for a taken email the two ways on. */
function SignUpFailure({ failure }: { failure: ApiError }) {
  if (failure.code === 'EMAIL_TAKEN' || failure.status === 409) {
    return (
      <Alert tone="error">
        <p>
          An account with this email already exists. <Link to={paths.login.href()}>Log in</Link> or{' '}
          <Link to={paths.forgetPassword.href()}>reset your password</Link>.
        </p>
      </Alert>
    );
  }
  // 429, offline and server faults carry a sentence worth reading; anything else gets the product's message (docs/product.md).
  const isExplained = failure.status === 429 || failure.status === 0 || failure.status >= 500;
  return (
    <Alert tone="error">
      <p>{isExplained ? failure.message : ACCOUNT_MESSAGES.signUpFailed}</p>
    </Alert>
  );
}
