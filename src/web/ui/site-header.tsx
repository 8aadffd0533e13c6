import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The top bar: the Easy Form logo linking to `home`, and whatever the page puts beside it. */
export function SiteHeader({ home = '/', children }: { home?: string; children?: ReactNode }) {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link to={home} className="brand">
          <span className="brand-mark" aria-hidden="true">
            E
          </span>
          <span className="brand-name">Easy Form</span>
        </Link>
        {children}
      </div>
    </header>
  );
}
