import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { SiteHeader } from './site-header.tsx';
import './auth.css';

/** The frame of the account screens: header with the other way in, and one centred card. */
export function AuthLayout({ children }: { children: ReactNode }) {
  const isSignUp = useLocation().pathname.toLowerCase() === '/signup';
  return (
    <>
      <SiteHeader>
        <Link to={isSignUp ? '/login' : '/signUp'} className="button button-secondary">
          {isSignUp ? 'Log In' : 'Sign Up'}
        </Link>
      </SiteHeader>
      <main className="auth-main">
        <div className="card auth-card">{children}</div>
      </main>
    </>
  );
}
