import { useQuery } from '@tanstack/react-query';
import { profileQuery } from '../api/accounts.ts';
import { logOutAndLeave } from '../api/log-out.ts';
import { readSession } from '../api/session.ts';
import { SiteHeader } from '../ui/site-header.tsx';
import './owner-home.css';

/** The signed-in owner's page until the dashboard arrives (issue 3): who is signed in, and Log Out. */
export function OwnerHome() {
  const session = readSession();
  const profile = useQuery({
    ...profileQuery(session?.id ?? ''),
    enabled: Boolean(session),
    initialData: session?.profile ?? undefined,
  });
  const name = profile.data?.fullName ?? '';
  return (
    <>
      <SiteHeader home="/createPage">
        <div className="owner-chip">
          <span className="owner-initial" aria-hidden="true">
            {name.charAt(0).toUpperCase() || '?'}
          </span>
          <span className="owner-names">
            <strong>{name}</strong>
            <span className="muted">{profile.data?.email}</span>
          </span>
          <button type="button" className="button button-secondary" onClick={() => void logOutAndLeave()}>
            Log Out
          </button>
        </div>
      </SiteHeader>
      <main className="container owner-home">
        <h1>Welcome, {name || 'there'}</h1>
        <p className="muted">
          Your dashboard is on its way: soon you will build forms and read responses right here.
        </p>
      </main>
    </>
  );
}
