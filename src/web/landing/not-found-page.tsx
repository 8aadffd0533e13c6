import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';

/** Any route the app does not know. */
export function NotFoundPage() {
  return (
    <MessagePage icon="?" kicker="404" title="Page not found">
      <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
      <Link to={paths.home.href()} className="button button-primary button-block">
        Go to the home page
      </Link>
    </MessagePage>
  );
}
