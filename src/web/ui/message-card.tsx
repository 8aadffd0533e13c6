import type { ReactNode } from 'react';

type Props = { icon: string; title: string; kicker?: string; children: ReactNode };

/**
 * The body of a page that says one thing: an icon, a heading (with an optional line above it), a few lines. Its look
 * (auth.css) comes with the page around it, customer-page.css or message-page.tsx, not from here: this file is in the
 * chunk both entries share, and a stylesheet of that chunk would be fetched by the customer's page when React takes
 * over, though the server put the same rules in the page.
 */
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
