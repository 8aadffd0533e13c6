import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { BrandMark } from './brand-mark.tsx';

/** The top bar: the Easy Form logo linking to `home`, and whatever the page puts beside it. */
export function SiteHeader({ home = paths.home.href(), children }: { home?: string; children?: ReactNode }) {
  return (
    <header className="site-header">
      <div className="container site-header-inner">
        <Link to={home} className="brand">
          <BrandMark />
        </Link>
        {children}
      </div>
    </header>
  );
}
