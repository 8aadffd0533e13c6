import { queryOptions } from '@tanstack/react-query';
import type { FormSummary, Submission, SubmissionPage } from '#common/submissions.ts';
import { api } from './client.ts';

const owner = { owner: true } as const;

export const summaryQuery = () =>
  queryOptions({ queryKey: ['formSummary'], queryFn: () => api<FormSummary[]>('/api/formSummary', owner) });

export type PageRequest = { after?: string; before?: string; from?: 'oldest' };

export const submissionPageQuery = (fid: string, page: PageRequest, limit = 25) =>
  queryOptions({
    queryKey: ['formSubmissions', fid, page, limit],
    queryFn: () => {
      const query = new URLSearchParams({ limit: String(limit) });
      if (page.after) query.set('after', page.after);
      if (page.before) query.set('before', page.before);
      if (page.from) query.set('from', page.from);
      return api<SubmissionPage>(`/api/formSubmissions/${fid}?${query}`, owner);
    },
  });

export const submissionQuery = (id: string) =>
  queryOptions({ queryKey: ['submission', id], queryFn: () => api<Submission>(`/api/forms/${id}`, owner) });

export const csvUrl = (fid: string) => `/api/formSubmissions/${fid}/csv`;
