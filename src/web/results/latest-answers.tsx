import { Link } from 'react-router';
import type { TextResult } from '#common/results.ts';
import { paths } from '../paths.ts';
import { formatOwnerTime, useOwnerTimeZone } from '../ui/owner-time-zone.ts';

/** A text question's newest answers, each a link to its response. */
export function LatestAnswers({ latest }: { latest: TextResult['latest'] }) {
  const zone = useOwnerTimeZone();
  if (latest.length === 0) return <p className="muted">No recent answers.</p>;
  return (
    <>
      <p className="results-note">Latest answers, newest first</p>
      <ol className="latest-answers">
        {latest.map((a) => (
          <li key={a.submissionId}>
            <Link className="latest-answer-link" to={paths.submitedForm.href(a.submissionId)} dir="auto">
              {a.value}
            </Link>
            <span className="muted latest-answer-date">{formatOwnerTime(a.createdAt, zone)}</span>
          </li>
        ))}
      </ol>
    </>
  );
}
