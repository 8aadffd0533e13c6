import type { ReactNode } from 'react';
import { paths } from '../paths.ts';
import { SiteHeader } from './site-header.tsx';

type Props = { fullName: string; email: string; onLogOut: () => void; children?: ReactNode };

/**
 * The owner's top bar (docs/product.md, Dashboard): logo to /createPage, the owner's initial, name and email,
 * Log Out.
 */
export function OwnerHeader({ fullName, email, onLogOut, children }: Props) {
  return (
    <SiteHeader home={paths.createPage.href()}>
      <div className="owner-chip">
        {children}
        <span className="owner-initial" aria-hidden="true">
          {fullName.charAt(0).toUpperCase() || '?'}
        </span>
        <span className="owner-names" title={`${fullName} · ${email}`}>
          <strong>{fullName}</strong>
          <span className="muted">{email}</span>
        </span>
        <button type="button" className="button button-secondary owner-logout" onClick={onLogOut}>
          Log Out
        </button>
      </div>
    </SiteHeader>
  );
}
