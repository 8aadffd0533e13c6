import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { MessagePage } from '../ui/message-page.tsx';

/** /notReady (docs/product.md, Owner screens): where every placeholder menu entry goes. */
export function NotReadyPage() {
  return (
    <MessagePage icon="⏳" title="Coming Soon...">
      <p>We&apos;re still building this part of Easy Form. Check back soon.</p>
      <Link to={paths.home.href()} className="button button-secondary button-block">
        Back to the home page
      </Link>
    </MessagePage>
  );
}
