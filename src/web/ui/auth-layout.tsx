import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { SiteHeader } from './site-header.tsx';

/** The frame of the account screens: header, and one centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <SiteHeader>
        <Link to="/signUp" className="button button-secondary">
          Sign Up
        </Link>
      </SiteHeader>
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
      </main>
    </>
  );
}
