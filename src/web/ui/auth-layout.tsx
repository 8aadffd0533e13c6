import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { paths } from '../paths.ts';
import { SiteHeader } from './site-header.tsx';
import './auth.css';

/** The frame of the account screens: header with the other way in, and one centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const isSignUp = useLocation().pathname.toLowerCase() === paths.signUp.path.toLowerCase();
  return (
    <>
      <SiteHeader>
        <Link to={isSignUp ? paths.login.href() : paths.signUp.href()} className="button button-secondary">
          {isSignUp ? 'Log In' : 'Sign Up'}
        </Link>
      </SiteHeader>
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
      </main>
    </>
  );
}
