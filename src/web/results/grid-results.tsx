import type { GridResult } from '#common/results.ts';
import { BarChart } from './bar-chart.tsx';

/** A choice grid's results: each row's columns as bars, with how many answered that row. */
export function GridSummary({ question }: { question: GridResult }) {
  return (
    <div className="result-grid">
      {question.rows.map((row) => (
        <div className="result-grid-row" key={`${row.offered ? 'on' : 'off'}:${row.row}`}>
          <h4 dir="auto">
            <bdi>{row.row}</bdi>
            {row.offered ? null : <span className="badge badge-muted">No longer on the grid</span>}
            <span className="muted result-grid-answered"> · {row.answered} answered</span>
          </h4>
          <BarChart caption={`${question.name}, ${row.row}: responses per column`} options={row.columns} />
        </div>
      ))}
    </div>
  );
}
