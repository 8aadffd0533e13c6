import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { logOutAndLeave } from '../api/log-out.ts';
import { useOwner } from '../api/use-owner.ts';
import { paths } from '../paths.ts';
import { OwnerHeaderItems } from '../ui/owner-layout.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ReceivedTab } from './received-tab.tsx';
import { RequestTab } from './request-tab.tsx';
import { SettingsTab } from './settings-tab.tsx';
import './dashboard.css';

const TABS = [
  { id: 'request', label: 'Request', title: 'Your forms' },
  { id: 'received', label: 'Received', title: 'Responses received' },
  { id: 'setting', label: 'Settings', title: 'Settings' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * /dashboard and / for a signed-in owner (docs/product.md, Dashboard): Request, Received, Settings and
 * Logout.
 */
export function DashboardPage() {
  useScreenTitle('Your forms');
  const owner = useOwner();
  const [search, setSearch] = useSearchParams();
  const [isMenuOpen, setMenuOpen] = useState(false);
  const tab: TabId = TABS.find((t) => t.id === search.get('tab'))?.id ?? 'request';
  const current = TABS.find((t) => t.id === tab) ?? TABS[0];

  const menu = (
    <ul className="dash-menu-list">
      {TABS.map((t) => (
        <li key={t.id}>
          <button
            type="button"
            className={`dash-menu-item${t.id === tab ? ' is-active' : ''}`}
            aria-current={t.id === tab ? 'page' : undefined}
            onClick={() => {
              setSearch(t.id === 'request' ? {} : { tab: t.id });
              setMenuOpen(false);
            }}
          >
            {t.label}
          </button>
        </li>
      ))}
      <li>
        <button type="button" className="dash-menu-item" onClick={() => void logOutAndLeave()}>
          Logout
        </button>
      </li>
    </ul>
  );

  return (
    <>
      <OwnerHeaderItems>
        <button
          type="button"
          className="button button-secondary dash-menu-toggle"
          aria-expanded={isMenuOpen}
          aria-controls="dash-menu-mobile"
          onClick={() => setMenuOpen((open) => !open)}
        >
          Menu
        </button>
      </OwnerHeaderItems>
      {isMenuOpen ? (
        <nav id="dash-menu-mobile" className="dash-menu-mobile" aria-label="Dashboard">
          {menu}
        </nav>
      ) : null}
      <div className="container dash">
        <nav className="dash-menu" aria-label="Dashboard">
          {menu}
        </nav>
        <main className="dash-main">
          <div className="row-between dash-title">
            <h1>{current.title}</h1>
            <Link to={paths.createPage.href()} className="button button-primary">
              + New form
            </Link>
          </div>
          {tab === 'request' ? <RequestTab /> : null}
          {tab === 'received' ? <ReceivedTab /> : null}
          {tab === 'setting' ? <SettingsTab ownerId={owner.id} fullName={owner.fullName} /> : null}
        </main>
      </div>
    </>
  );
}
