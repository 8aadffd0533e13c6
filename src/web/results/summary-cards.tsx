import type { FormResults } from '#common/results.ts';

const percent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;

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
        <dd>{completionRate === null ? '—' : percent(completionRate)}</dd>
        <dd className="stat-note">
          {completionRate === null ? 'No views counted yet' : 'Responses per view'}
        </dd>
      </div>
    </dl>
  );
}
