import type { DayCount } from '#common/results.ts';

/** "Nov 23" for a YYYY-MM-DD day (already the owner's day, counted on their clock by the server, so read as UTC). */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

const SLOT = 10;
/** Views drawn wide behind, responses narrower in front, in each day's slot. */
const SERIES = [
  { key: 'views', inset: 1 },
  { key: 'responses', inset: 2.5 },
] as const;

/**
 * Responses (and, behind them, views) per day as SVG columns, one slot a day. The drawing is hidden from assistive
 * technology; the table carries every day's numbers.
 */
export function DayChart({ days }: { days: readonly DayCount[] }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.responses, d.views)));
  const height = (n: number) => (n / max) * 100;
  const first = days[0];
  const last = days.at(-1);
  const total = days.reduce((sum, d) => sum + d.responses, 0);
  return (
    <figure className="day-chart">
      <p className="day-chart-total">
        <strong>{total}</strong> {total === 1 ? 'response' : 'responses'} in the last {days.length} days
      </p>
      <div className="day-chart-plot" aria-hidden="true">
        <span className="day-chart-max">{max}</span>
        <svg
          className="day-chart-svg"
          viewBox={`0 0 ${days.length * SLOT} 100`}
          preserveAspectRatio="none"
          focusable="false"
        >
          <line className="day-chart-grid" x1="0" x2={days.length * SLOT} y1="0.5" y2="0.5" />
          <line className="day-chart-grid" x1="0" x2={days.length * SLOT} y1="50" y2="50" />
          {days.map((d, i) => (
            <g key={d.day}>
              {SERIES.map(({ key, inset }) => (
                <rect
                  key={key}
                  className={`day-${key}`}
                  x={i * SLOT + inset}
                  y={100 - height(d[key])}
                  width={SLOT - 2 * inset}
                  height={height(d[key])}
                />
              ))}
            </g>
          ))}
        </svg>
        <span className="day-chart-axis">
          <span>{first ? dayLabel(first.day) : ''}</span>
          <span>{last ? dayLabel(last.day) : ''}</span>
        </span>
      </div>
      <ul className="day-chart-legend" aria-hidden="true">
        <li>
          <span className="swatch swatch-responses" /> Responses
        </li>
        <li>
          <span className="swatch swatch-views" /> Views
        </li>
      </ul>
      {/* The wrapper hides it: a table is never narrower than its content, whatever its own width says. */}
      <div className="visually-hidden">
        <table>
          <caption>Responses and views per day, last {days.length} days</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Responses</th>
              <th scope="col">Views</th>
            </tr>
          </thead>
          <tbody>
            {days.map((d) => (
              <tr key={d.day}>
                <th scope="row">{dayLabel(d.day)}</th>
                <td>{d.responses}</td>
                <td>{d.views}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
