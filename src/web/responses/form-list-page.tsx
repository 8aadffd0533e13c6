import { useQuery } from '@tanstack/react-query';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { responsesCsvFileName } from '#common/download-names.ts';
import { logOutAndLeave } from '../api/log-out.ts';
import { csvUrl, submissionPageQuery, type PageRequest } from '../api/responses.ts';
import { readSession } from '../api/session.ts';
import { useOwner } from '../api/use-owner.ts';
import { paths } from '../paths.ts';
import { Alert } from '../ui/alert.tsx';
import { DateTimeCells } from '../ui/date-time-cells.tsx';
import { DateTimeHeads } from '../ui/date-time-heads.tsx';
import { OwnerHeader } from '../ui/owner-header.tsx';
import { downloadWithToken } from './download.ts';
import './responses.css';

const PAGE_SIZE = 25;

/** /formList (spec §2): one form's responses, newest first, a page at a time; a row opens the response. */
export function FormListPage() {
  const owner = useOwner();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const fid = search.get('fid') ?? '';
  const page: PageRequest = {
    after: search.get('after') ?? undefined,
    before: search.get('before') ?? undefined,
    from: search.get('from') === 'oldest' ? 'oldest' : undefined,
  };
  const list = useQuery({ ...submissionPageQuery(fid, page, PAGE_SIZE), enabled: fid !== '' });
  if (!fid) return <Navigate to="/dashboard?tab=received" replace />;
  const go = (next: Record<string, string>) => setSearch({ fid, ...next });

  return (
    <>
      <OwnerHeader fullName={owner.fullName} email={owner.email} onLogOut={() => void logOutAndLeave()} />
      <main className="container responses">
        <Link to="/dashboard?tab=received">← All forms</Link>
        {list.isPending ? <p className="muted">Loading responses…</p> : null}
        {list.isError ? (
          <Alert tone="error">These responses could not be loaded. {list.error.message}</Alert>
        ) : null}
        {list.isSuccess ? (
          <>
            <div className="row-between responses-head">
              <div>
                <h1>{list.data.formTitle}</h1>
                <p className="muted">
                  {list.data.total} {list.data.total === 1 ? 'response' : 'responses'}, newest first
                </p>
              </div>
              <div className="responses-actions">
                <Link className="button button-secondary" to={paths.formResults.href(fid)}>
                  Results
                </Link>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() =>
                    void downloadWithToken(
                      csvUrl(fid),
                      readSession()?.token ?? '',
                      responsesCsvFileName(list.data.formTitle),
                    )
                  }
                >
                  Download CSV
                </button>
              </div>
            </div>
            {list.data.items.length === 0 ? (
              <p className="card empty">
                No responses yet. Share the form&apos;s link to start collecting them.
              </p>
            ) : (
              <div className="table-wrap">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Contact Information</th>
                      <DateTimeHeads />
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.items.map((item) => {
                      const [date, time] = item.Date.split(',').map((s) => s.trim());
                      const href = `/submitedForm/${item._id}`;
                      return (
                        <tr key={item._id} className="is-clickable" onClick={() => navigate(href)}>
                          <td>
                            <Link className="table-link" to={href} onClick={(e) => e.stopPropagation()}>
                              {item.contact || 'Anonymous response'}
                            </Link>
                          </td>
                          <DateTimeCells date={date} time={time} />
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </div>
            )}
            {list.data.prevCursor || list.data.nextCursor ? (
              <nav className="pager responses-pager" aria-label="Pages of responses">
                {pagerLinks(list.data.prevCursor, list.data.nextCursor).map(({ label, to }) => (
                  <button
                    key={label}
                    type="button"
                    className="button button-secondary button-small"
                    disabled={!to}
                    onClick={() => to && go(to)}
                  >
                    {label}
                  </button>
                ))}
              </nav>
            ) : null}
          </>
        ) : null}
      </main>
    </>
  );
}

/** The pager's buttons and the search each one asks for; null where there is nothing that way. */
function pagerLinks(
  newer: string | null,
  older: string | null,
): { label: string; to: Record<string, string> | null }[] {
  return [
    { label: 'Newest', to: newer ? {} : null },
    { label: '← Newer', to: newer ? { before: newer } : null },
    { label: 'Older →', to: older ? { after: older } : null },
    { label: 'Oldest', to: older ? { from: 'oldest' } : null },
  ];
}
