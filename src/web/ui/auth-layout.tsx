import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../paths.ts';
import { SiteHeader } from './site-header.tsx';
import './auth.css';

/** The frame of the account screens: header with the other way in, and one centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const location = useLocation();
  const isSignUp = location.pathname.toLowerCase() === paths.signUp.path.toLowerCase();
  // The page the visitor was on the way to (a chosen template) goes with them to the other way in.
  const next = new URLSearchParams(location.search).get('next') ?? undefined;
  return (
    <>
      <SiteHeader>
        <Link
          to={isSignUp ? paths.login.href(next) : paths.signUp.href(next)}
          className="button button-secondary"
        >
          {isSignUp ? 'Log In' : 'Sign Up'}
        </Link>
      </SiteHeader>
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
      </main>
    </>
  );
}
