import { Link, useSearchParams } from 'react-router';
import { VERIFICATION_LINK_HOURS } from '#common/accounts.ts';
import { signUpEmail } from '../api/session.ts';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ResendLinkForm } from './resend-link-form.tsx';

const REASONS = {
  expired: {
    title: 'This verification link has expired',
    text: `Links are valid for ${VERIFICATION_LINK_HOURS} hours. Enter your email and we will send you a new one.`,
  },
  used: {
    title: 'This link was already used',
    text: 'Your email may already be verified — try logging in. If that does not work, ask for a new link.',
  },
  invalid: {
    title: 'This verification link is not valid',
    text: 'It may be incomplete, or a newer link replaced it. Enter your email and we will send a fresh one.',
  },
} as const;

const isReason = (value: string | null): value is keyof typeof REASONS =>
  value === 'expired' || value === 'used' || value === 'invalid';

/** /emailVerify: where an expired, used or unknown verification link lands (?reason=), with a way to get a new one. */
export function EmailVerifyPage() {
  useScreenTitle('Check your email');
  const [search] = useSearchParams();
  const given = search.get('reason');
  const reason = REASONS[isReason(given) ? given : 'invalid'];
  return (
    <MessagePage icon="!" title="Verify Your Email">
      <h2>{reason.title}</h2>
      <p>{reason.text}</p>
      {given === 'used' ? (
        <Link to={paths.login.href()} className="button button-primary button-block">
          Log in
        </Link>
      ) : null}
      {given === 'used' ? <p className="auth-separator">Still not verified?</p> : null}
      <ResendLinkForm initialEmail={signUpEmail() ?? ''} askEmail label="Send a new link" />
      {given === 'used' ? null : (
        <p className="auth-footer">
          Already verified? <Link to={paths.login.href()}>Go to Login</Link>
        </p>
      )}
    </MessagePage>
  );
}
