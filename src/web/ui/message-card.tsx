import type { ReactNode } from 'react';
import './auth.css';

type Props = { icon: string; title: string; kicker?: string; children: ReactNode };

/** The body of a page that says one thing: an icon, a heading (with an optional line above it), a few lines. */
export function MessageCard({ icon, title, kicker, children }: Props) {
  return (
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
  );
}
