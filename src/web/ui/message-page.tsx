import type { ReactNode } from 'react';
import { SiteHeader } from './site-header.tsx';

/** A page that says one thing: an icon, a heading, a few lines and the way on. */
export function MessagePage({ icon, title, children }: { icon: string; title: string; children: ReactNode }) {
  return (
    <>
      <SiteHeader />
      <main className="auth-main">
        <div className="card auth-card">
          <div className="icon-hero" aria-hidden="true">
            {icon}
          </div>
          <h1>{title}</h1>
          {children}
        </div>
      </main>
    </>
  );
}
