import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';

/** /emailVerified: 'Your email has been verified' (docs/product.md, Accounts). */
export function EmailVerifiedPage() {
  useScreenTitle('Email verified');
  return (
    <MessagePage icon="✓" title="Your email has been verified">
      <p>Your account is ready. Log in to create your first form.</p>
      <Link to={paths.login.href()} className="button button-primary button-block">
        Log in
      </Link>
    </MessagePage>
  );
}
