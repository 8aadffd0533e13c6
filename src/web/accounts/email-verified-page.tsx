import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';

/** /emailVerified: 'Your email has been verified' (docs/product.md, Accounts). */
export function EmailVerifiedPage() {
  return (
    <MessagePage icon="✓" title="Your email has been verified">
      <p>Your account is ready. Log in to create your first form.</p>
      <Link to={paths.login.href()} className="button button-primary button-block">
        Log in
      </Link>
    </MessagePage>
  );
}
