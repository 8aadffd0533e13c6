import type { FormResults } from '#common/results.ts';

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

/**
 * A view is an open of the form's link counted by the server; a page reloaded from the phone's own copy (offline),
 * or a response sent through the API, comes without one. So responses can outnumber views: the rate stops at 100%
 * and says why, rather than showing 125%.
 */
function noteOn(rate: number | null): string {
  if (rate === null) return 'No views counted yet';
  if (rate > 1)
    return 'More responses than counted views: some came from a page kept on the phone or the API';
  return 'Responses per view';
}

/** Responses, views and completion rate, the figures an owner looks at first. */
export function SummaryCards({ results }: { results: FormResults }) {
  const { responses, views, completionRate } = results;
  return (
    <dl className="results-summary">
      <div className="card stat">
        <dt>Responses</dt>
        <dd>{responses.toLocaleString('en-US')}</dd>
      </div>
      <div className="card stat">
        <dt>Views</dt>
        <dd>{views.toLocaleString('en-US')}</dd>
      </div>
      <div className="card stat">
        <dt>Completion rate</dt>
        <dd>{completionRate === null ? '—' : percent(Math.min(completionRate, 1))}</dd>
        <dd className="stat-note">{noteOn(completionRate)}</dd>
      </div>
    </dl>
  );
}
