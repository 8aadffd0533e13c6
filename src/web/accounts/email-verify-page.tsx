import { Link, useSearchParams } from 'react-router';
import { signUpEmail } from '../api/session.ts';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';
import { ResendLinkForm } from './resend-link-form.tsx';

const REASONS: Record<string, { title: string; text: string }> = {
  expired: {
    title: 'This verification link has expired',
    text: 'Links are valid for 24 hours. Enter your email and we will send you a new one.',
  },
  used: {
    title: 'This link was already used',
    text: 'Your email may already be verified: try logging in. If you cannot, ask for a new link.',
  },
  invalid: {
    title: 'This link is not valid',
    text: 'It may be incomplete, or a newer link replaced it. Enter your email and we will send a fresh one.',
  },
};

/** /emailVerify: where an expired, used or unknown verification link lands, with a way to get a new one. */
export function EmailVerifyPage() {
  const [search] = useSearchParams();
  const reason = REASONS[search.get('reason') ?? ''] ?? REASONS.invalid;
  return (
    <MessagePage icon="⚠" title="Verify Your Email">
      <h2>{reason?.title}</h2>
      <p>{reason?.text}</p>
      <ResendLinkForm initialEmail={signUpEmail() ?? ''} askEmail />
      <p className="auth-footer">
        <Link to={paths.login.href()}>Go to Login</Link>
      </p>
    </MessagePage>
  );
}
