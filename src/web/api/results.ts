import { queryOptions } from '@tanstack/react-query';
import type { FormResults } from '#common/results.ts';
import { api } from './client.ts';

export const resultsQuery = (fid: string) =>
  queryOptions({
    queryKey: ['formResults', fid],
    queryFn: () => api<FormResults>(`/api/formResults/${encodeURIComponent(fid)}`, { owner: true }),
  });
