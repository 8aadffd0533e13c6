import { Link, useLocation } from 'react-router';
import { VERIFICATION_LINK_HOURS } from '#common/accounts.ts';
import { signUpEmail } from '../api/session.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { MessagePage } from '../ui/message-page.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ResendLinkForm } from './resend-link-form.tsx';

/**
 * /verification and /verify (docs/product.md, Accounts): 'Check your Email' with the address just used to
 * sign up.
 */
export function VerifyPage() {
  useScreenTitle('Verify your email');
  const email = signUpEmail();
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  return (
    <MessagePage icon="✉" kicker="Verify Your Email" title="Check your Email">
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <p>
        We sent a verification link to {email ? <strong>{email}</strong> : 'the address you signed up with'}.
        Open it to activate your account. The link is valid for {VERIFICATION_LINK_HOURS} hours.
      </p>
      <p className="muted">Can&apos;t find it? Look in your spam folder, or send it again.</p>
      <ResendLinkForm initialEmail={email ?? ''} askEmail={!email} />
      <p className="auth-footer">
        Already verified? <Link to={paths.login.href()}>Log in</Link>
      </p>
    </MessagePage>
  );
}
