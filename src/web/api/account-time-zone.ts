import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { AccountTimeZone } from '#common/accounts.ts';
import { keepAccountTimeZone } from '../ui/owner-time-zone.ts';
import { api } from './client.ts';

const accountTimeZoneQuery = () =>
  queryOptions({
    queryKey: ['accountTimeZone'],
    queryFn: () => api<AccountTimeZone>('/api/v1/timeZone', { owner: true }),
    staleTime: 60_000,
  });

/** Reads the account's zone from the server and keeps it on this browser, so every owner screen shows it. */
export function useAccountTimeZoneSync(): void {
  const { data } = useQuery(accountTimeZoneQuery());
  useEffect(() => {
    if (data) keepAccountTimeZone(data.timeZone);
  }, [data]);
}

/** Saves the account's zone (null: the browser's); once stored, every screen redraws on its clock. */
export function useSaveAccountTimeZone() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (timeZone: string | null) =>
      api<AccountTimeZone>('/api/v1/timeZone', { method: 'PUT', body: { timeZone }, owner: true }),
    // A read of the zone still on its way (the page's own, at load) was answered before this save: its old zone
    // must not land after the saved one and take it back.
    onMutate: () => client.cancelQueries({ queryKey: accountTimeZoneQuery().queryKey }),
    onSuccess: (saved) => {
      client.setQueryData(accountTimeZoneQuery().queryKey, saved);
      keepAccountTimeZone(saved.timeZone);
    },
  });
}
