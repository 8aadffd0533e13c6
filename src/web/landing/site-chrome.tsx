import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../paths.ts';
import { SiteHeader } from '../ui/site-header.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import './landing.css';
import { MenuLinks } from './menu-links.tsx';

/** The public site's header: the menu (a list on a wide screen, a Menu button on a phone) and the way in. */
export function SiteMenuHeader() {
  return (
    <SiteHeader>
      <nav aria-label="Main" className="landing-nav">
        <ul>
          <MenuLinks />
        </ul>
      </nav>
      <details className="landing-menu">
        <summary className="button button-secondary">Menu</summary>
        <ul>
          <MenuLinks />
          <li>
            <Link to={paths.login.href()}>Log In</Link>
          </li>
          <li>
            <Link to={paths.signUp.href()}>Sign Up</Link>
          </li>
        </ul>
      </details>
      <div className="landing-actions">
        <Link to={paths.login.href()} className="button button-secondary">
          Log In
        </Link>
        <Link to={paths.signUp.href()} className="button button-primary">
          Sign Up
        </Link>
      </div>
    </SiteHeader>
  );
}

/** The public site's footer: who makes it, the menu again, Terms and Privacy. */
export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <p>
          <strong>Easy Form</strong> is a product of Easy Labs. Open source, self-hosted, yours.
        </p>
        <nav aria-label="Footer">
          <ul>
            <MenuLinks />
            <li>
              <Link to={paths.terms.href()}>Terms</Link>
            </li>
            <li>
              <Link to={paths.privacy.href()}>Privacy</Link>
            </li>
          </ul>
        </nav>
        <p className="muted">© {new Date().getFullYear()} Easy Labs</p>
      </div>
    </footer>
  );
}

/** A page of the public site: header, one titled column of text, footer; the tab says the page's name. */
export function SitePage({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  useScreenTitle(title);
  return (
    <div className="site-shell">
      <SiteMenuHeader />
      <main className="container site-page">
        <h1>{title}</h1>
        {lead ? <p className="site-page-lead">{lead}</p> : null}
        {children}
      </main>
      <SiteFooter />
    </div>
  );
}
