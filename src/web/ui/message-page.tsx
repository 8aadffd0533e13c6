import type { ReactNode } from 'react';
import { SiteHeader } from './site-header.tsx';
import './auth.css';

type Props = { icon: string; title: string; kicker?: string; children: ReactNode };

/** A page that says one thing: an icon, a heading (with an optional line above it), a few lines and the way on. */
export function MessagePage({ icon, title, kicker, children }: Props) {
  return (
    <>
      <SiteHeader />
      <main className="auth-main">
        <div className="card auth-card">
          <div className="icon-hero" aria-hidden="true">
            {icon}
          </div>
          {kicker ? <p className="auth-kicker">{kicker}</p> : null}
          <h1>{title}</h1>
          {children}
        </div>
      </main>
    </>
  );
}
