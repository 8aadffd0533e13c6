import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useSearchParams } from 'react-router';
import { resultsQuery } from '../api/results.ts';
import { paths } from '../paths.ts';
import { QueryStatus } from '../ui/query-table.tsx';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ResultsView } from './results-view.tsx';
import './results.css';
import './question-results.css';

/** /formResults?fid=: one form's results, from counters the server keeps as responses arrive. */
export function ResultsPage() {
  const [search] = useSearchParams();
  const fid = search.get('fid') ?? '';
  const results = useQuery({ ...resultsQuery(fid), enabled: fid !== '' });
  useScreenTitle('Results');
  if (!fid) return <Navigate to={paths.dashboard.href('received')} replace />;
  return (
    <>
      <main className="container results">
        <Link to={paths.dashboard.href('received')}>← All forms</Link>
        <QueryStatus query={results} loading="Loading results…" failed="These results could not be loaded." />
        {results.isSuccess ? <ResultsView results={results.data} /> : null}
      </main>
    </>
  );
}
