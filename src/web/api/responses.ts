import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResponseFilter } from '#common/response-filter.ts';
import type { FormSummary, Submission, SubmissionPage } from '#common/submissions.ts';
import { ownerTimeZone } from '../ui/owner-time-zone.ts';
import { api } from './client.ts';

const owner = { owner: true } as const;

export const summaryQuery = () =>
  queryOptions({ queryKey: ['formSummary'], queryFn: () => api<FormSummary[]>('/api/formSummary', owner) });

/** A page of the list: `order` oldest turns the list round (newest first by default). */
export type PageRequest = { after?: string; before?: string; from?: 'oldest'; order?: 'oldest' };

/** The filter as query-string pairs, empty parts left out. */
const filterQuery = (filter: ResponseFilter): URLSearchParams => {
  const query = new URLSearchParams();
  if (filter.q) query.set('q', filter.q);
  if (filter.fromDate) query.set('fromDate', filter.fromDate);
  if (filter.toDate) query.set('toDate', filter.toDate);
  return query;
};

export const submissionPageQuery = (
  fid: string,
  page: PageRequest,
  limit = 25,
  filter: ResponseFilter = {},
  // The filter's days are read on the owner's clock.
  zone = ownerTimeZone(),
) =>
  queryOptions({
    queryKey: ['formSubmissions', fid, page, limit, filter, zone],
    queryFn: () => {
      const query = filterQuery(filter);
      query.set('tz', zone);
      query.set('limit', String(limit));
      if (page.after) query.set('after', page.after);
      if (page.before) query.set('before', page.before);
      if (page.from) query.set('from', page.from);
      if (page.order) query.set('order', page.order);
      return api<SubmissionPage>(`/api/formSubmissions/${fid}?${query}`, owner);
    },
  });

export const submissionQuery = (id: string) =>
  queryOptions({ queryKey: ['submission', id], queryFn: () => api<Submission>(`/api/forms/${id}`, owner) });

/** The CSV export of the responses `filter` lets through, its times in the owner's own zone. */
export const csvUrl = (fid: string, filter: ResponseFilter = {}) => {
  const query = filterQuery(filter);
  query.set('tz', ownerTimeZone());
  return `/api/formSubmissions/${fid}/csv?${query.toString()}`;
};

/** Deletes responses: one by id, or several of one form; the lists, counts and Results read afresh after. */
export function useDeleteResponses() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fid, ids }: { fid: string; ids: string[] }) =>
      ids.length === 1 && ids[0]
        ? api<{ deleted: number }>(`/api/forms/${ids[0]}`, { ...owner, method: 'DELETE' })
        : api<{ deleted: number }>(`/api/formSubmissions/${fid}/delete`, {
            ...owner,
            method: 'POST',
            body: { ids },
          }),
    onSuccess: (_, { fid, ids }) => {
      for (const id of ids) client.removeQueries({ queryKey: submissionQuery(id).queryKey });
      void client.invalidateQueries({ queryKey: ['formSubmissions', fid] });
      void client.invalidateQueries({ queryKey: summaryQuery().queryKey });
      void client.invalidateQueries({ queryKey: ['formResults', fid] });
    },
  });
}
