import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router';
import { responsesCsvFileName } from '#common/download-names.ts';
import { isFiltered, type ResponseFilter } from '#common/response-filter.ts';
import { csvUrl, submissionPageQuery, useDeleteResponses, type PageRequest } from '../api/responses.ts';
import { readSession } from '../api/session.ts';
import { paths } from '../paths.ts';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { QueryStatus } from '../ui/query-table.tsx';
import { responsesCount } from '../ui/response-count.ts';
import { useScreenTitle } from '../ui/use-screen-title.ts';
import { ColumnChooser, useAnswerColumns } from './answer-columns.tsx';
import { downloadWithToken } from './download.ts';
import { ResponseFilterBar } from './response-filter-bar.tsx';
import { ResponsesTable } from './responses-table.tsx';
import './responses.css';

const PAGE_SIZE = 25;

/** The filter's query-string pairs, empty ones left out. */
const filterParams = (filter: ResponseFilter): Record<string, string> =>
  Object.fromEntries(Object.entries(filter).filter((e): e is [string, string] => Boolean(e[1])));

/**
 * /formList (docs/product.md, Responses): one form's responses, newest first, a page at a time; a row opens
 * the response. The filter and the page are in the URL; the rows picked for deleting are this page's only,
 * forgotten when the URL changes.
 */
export function FormListPage() {
  const [search, setSearch] = useSearchParams();
  const fid = search.get('fid') ?? '';
  const page: PageRequest = {
    after: search.get('after') ?? undefined,
    before: search.get('before') ?? undefined,
    from: search.get('from') === 'oldest' ? 'oldest' : undefined,
    order: search.get('order') === 'oldest' ? 'oldest' : undefined,
  };
  const filter: ResponseFilter = {
    q: search.get('q') ?? undefined,
    fromDate: search.get('fromDate') ?? undefined,
    toDate: search.get('toDate') ?? undefined,
  };
  const zone = useOwnerTimeZone();
  const list = useQuery({ ...submissionPageQuery(fid, page, PAGE_SIZE, filter, zone), enabled: fid !== '' });
  useScreenTitle(list.data ? `${list.data.formTitle || 'Untitled'} · Responses` : 'Responses');
  const remove = useDeleteResponses();
  const columns = useAnswerColumns(fid, list.data?.questions ?? []);
  const [selection, setSelection] = useState({ of: '', ids: new Set<string>() });
  const [isConfirming, setConfirming] = useState(false);
  const [done, setDone] = useState('');
  const here = search.toString();
  const selected = selection.of === here ? selection.ids : new Set<string>();
  if (!fid) return <Navigate to={paths.dashboard.href('received')} replace />;
  const go = (next: Record<string, string>, nextFilter = filter) =>
    setSearch({ fid, ...filterParams(nextFilter), ...(page.order ? { order: page.order } : {}), ...next });
  const deleteSelected = () => {
    const ids = [...selected];
    remove.mutate(
      { fid, ids },
      {
        onSuccess: ({ deleted }) => {
          setConfirming(false);
          setSelection({ of: here, ids: new Set() });
          setDone(`Deleted ${responsesCount(deleted)}.`);
        },
      },
    );
  };

  return (
    <>
      <main className="container responses">
        <Link to={paths.dashboard.href('received')}>← All forms</Link>
        <QueryStatus
          query={list}
          loading="Loading responses…"
          failed="These responses could not be loaded."
        />
        {list.isSuccess ? (
          <>
            <div className="row-between responses-head">
              <div>
                <h1>{list.data.formTitle}</h1>
                <p className="muted" aria-live="polite">
                  {isFiltered(filter)
                    ? `${responsesCount(list.data.total)} match, ${page.order ? 'oldest' : 'newest'} first`
                    : `${responsesCount(list.data.total)}, ${page.order ? 'oldest' : 'newest'} first`}
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
                      csvUrl(fid, filter),
                      readSession()?.token ?? '',
                      responsesCsvFileName(list.data.formTitle),
                    )
                  }
                >
                  Download CSV
                </button>
              </div>
            </div>
            <ResponseFilterBar key={here} filter={filter} onApply={(next) => go({}, next)} />
            <ColumnChooser
              questions={list.data.questions}
              isShown={columns.isShown}
              toggle={columns.toggle}
            />
            <div className="selection-bar" aria-live="polite">
              <span className="muted">{selected.size > 0 ? `${selected.size} selected` : done}</span>
              <button
                type="button"
                className="button button-danger button-small"
                disabled={selected.size === 0}
                onClick={() => setConfirming(true)}
              >
                Delete selected
              </button>
            </div>
            {remove.error ? (
              <p role="alert" className="field-error">
                {remove.error.message}
              </p>
            ) : null}
            {list.data.items.length === 0 ? (
              <p className="card empty">
                {isFiltered(filter)
                  ? 'No responses match this search and dates. Change them or clear the filter.'
                  : page.after || page.before || page.from
                    ? 'No responses on this page any more.'
                    : 'No responses yet. Share the form’s link to start collecting them.'}
              </p>
            ) : (
              <ResponsesTable
                columns={columns.shown}
                order={page.order ?? 'newest'}
                onSort={() =>
                  setSearch({ fid, ...filterParams(filter), ...(page.order ? {} : { order: 'oldest' }) })
                }
                items={list.data.items}
                selected={selected}
                onSelect={(ids) => {
                  setDone('');
                  setSelection({ of: here, ids });
                }}
              />
            )}
            {list.data.prevCursor || list.data.nextCursor ? (
              <nav className="pager responses-pager" aria-label="Pages of responses">
                {pagerLinks(list.data.prevCursor, list.data.nextCursor, Boolean(page.order)).map(
                  ({ label, to }) => (
                    <button
                      key={label}
                      type="button"
                      className="button button-secondary button-small"
                      disabled={!to}
                      onClick={() => to && go(to)}
                    >
                      {label}
                    </button>
                  ),
                )}
              </nav>
            ) : null}
          </>
        ) : null}
        {isConfirming ? (
          <ConfirmDialog
            title={`Delete ${responsesCount(selected.size)}?`}
            confirmLabel={remove.isPending ? 'Deleting…' : 'Delete'}
            onCancel={() => setConfirming(false)}
            onConfirm={deleteSelected}
          >
            The selected responses and their uploaded files will be deleted. This cannot be undone.
          </ConfirmDialog>
        ) : null}
      </main>
    </>
  );
}

/** The pager's buttons and the search each one asks for; null where there is nothing that way. */
function pagerLinks(
  prev: string | null,
  next: string | null,
  oldestFirst: boolean,
): { label: string; to: Record<string, string> | null }[] {
  const [start, back, on, end] = oldestFirst
    ? ['Oldest', '← Older', 'Newer →', 'Newest']
    : ['Newest', '← Newer', 'Older →', 'Oldest'];
  return [
    { label: start, to: prev ? {} : null },
    { label: back, to: prev ? { before: prev } : null },
    { label: on, to: next ? { after: next } : null },
    { label: end, to: next ? { from: 'oldest' } : null },
  ];
}
