import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useSearchParams } from 'react-router';
import { logOutAndLeave } from '../api/log-out.ts';
import { resultsQuery } from '../api/results.ts';
import { useOwner } from '../api/use-owner.ts';
import { Alert } from '../ui/alert.tsx';
import { OwnerHeader } from '../ui/owner-header.tsx';
import { ResultsView } from './results-view.tsx';
import './results.css';

/** /formResults?fid=: one form's results, from counters the server keeps as responses arrive. */
export function ResultsPage() {
  const owner = useOwner();
  const [search] = useSearchParams();
  const fid = search.get('fid') ?? '';
  const results = useQuery({ ...resultsQuery(fid), enabled: fid !== '' });
  if (!fid) return <Navigate to="/dashboard?tab=received" replace />;
  return (
    <>
      <OwnerHeader fullName={owner.fullName} email={owner.email} onLogOut={() => void logOutAndLeave()} />
      <main className="container results">
        <Link to="/dashboard?tab=received">← All forms</Link>
        {results.isPending ? <p className="muted">Loading results…</p> : null}
        {results.isError ? (
          <Alert tone="error">These results could not be loaded. {results.error.message}</Alert>
        ) : null}
        {results.isSuccess ? <ResultsView results={results.data} /> : null}
      </main>
    </>
  );
}
