import { queryOptions } from '@tanstack/react-query';
import type { FormResults } from '#common/results.ts';
import { ownerTimeZone } from '../ui/owner-time-zone.ts';
import { api } from './client.ts';

/** The form's Results, its days counted on the owner's clock. */
export const resultsQuery = (fid: string, zone = ownerTimeZone()) =>
  queryOptions({
    queryKey: ['formResults', fid, zone],
    queryFn: () =>
      api<FormResults>(`/api/formResults/${encodeURIComponent(fid)}?tz=${encodeURIComponent(zone)}`, {
        owner: true,
      }),
  });
