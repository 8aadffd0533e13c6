import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Alert } from './alert.tsx';

type Props<T> = {
  query: UseQueryResult<T[]>;
  /** Shown while the rows load. */
  loading: string;
  /** The sentence before the error's own message. */
  failed: string;
  /** Shown when there are no rows. */
  empty: ReactNode;
  /** The header row's cells. */
  head: ReactNode;
  /** One row (a keyed `<tr>`) for each item. */
  row: (item: T) => ReactNode;
};

/** A table of what a query loads, with its loading, error and empty states. */
export function QueryTable<T>({ query, loading, failed, empty, head, row }: Props<T>) {
  if (!query.isSuccess) return <QueryStatus query={query} loading={loading} failed={failed} />;
  if (query.data.length === 0) return empty;
  return <Table head={head}>{query.data.map(row)}</Table>;
}

/** A query's loading and error states; nothing once it has loaded (the caller draws what it loaded). */
export function QueryStatus({
  query,
  loading,
  failed,
}: {
  query: UseQueryResult<unknown>;
  loading: string;
  failed: string;
}) {
  if (query.isPending) return <p className="muted">{loading}</p>;
  if (query.isError) {
    return (
      <Alert tone="error">
        {failed} {query.error.message}
      </Alert>
    );
  }
  return null;
}

/** The owner's tables: a header row of `head` cells over the rows, scrolling sideways within the page if wide. */
export function Table({ head, children }: { head: ReactNode; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="table">
        <thead>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
