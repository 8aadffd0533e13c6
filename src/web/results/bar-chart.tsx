import type { OptionCount } from '#common/results.ts';

type Props = { caption: string; options: readonly OptionCount[] };

/**
 * Horizontal bars for a choice question, drawn as plain SVG (docs/decisions/020-results.md): each option's share of
 * the answers. The drawing is hidden from assistive technology; the table beside it carries the same numbers.
 */
export function BarChart({ caption, options }: Props) {
  return (
    <figure className="bar-chart">
      <div className="bar-rows" aria-hidden="true">
        {options.map((o) => (
          <div className="bar-row" key={`${o.offered ? 'on' : 'off'}:${o.value}`}>
            <span className="bar-label">
              <bdi>{o.value}</bdi>
              {o.offered ? null : <span className="badge badge-muted">No longer offered</span>}
            </span>
            <svg className="bar" viewBox="0 0 100 10" preserveAspectRatio="none" focusable="false">
              <rect className="bar-track" width="100" height="10" />
              <rect
                className={o.offered ? 'bar-fill' : 'bar-fill is-retired'}
                width={o.percent}
                height="10"
              />
            </svg>
            <span className="bar-value">
              {o.count} · {o.percent}%
            </span>
          </div>
        ))}
      </div>
      {/* The wrapper hides it: a table is never narrower than its content, whatever its own width says. */}
      <div className="visually-hidden">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">Option</th>
              <th scope="col">Responses</th>
              <th scope="col">Share of answers</th>
            </tr>
          </thead>
          <tbody>
            {options.map((o) => (
              <tr key={`${o.offered ? 'on' : 'off'}:${o.value}`}>
                <th scope="row">
                  <bdi>{o.value}</bdi>
                  {o.offered ? '' : ' (no longer offered)'}
                </th>
                <td>{o.count}</td>
                <td>{o.percent}%</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
