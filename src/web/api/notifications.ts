import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormNotifications, FormNotificationsView } from '#common/notifications.ts';
import { api } from './client.ts';

const owner = { owner: true } as const;

export const formNotificationsQuery = (fid: string) =>
  queryOptions({
    queryKey: ['forms', fid, 'notifications'],
    queryFn: () => api<FormNotificationsView>(`/api/formNotifications/${fid}`, owner),
  });

/** Saves both settings; the answer becomes the cached state. */
export function useSaveFormNotifications(fid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: FormNotifications) =>
      api<FormNotificationsView>(`/api/formNotifications/${fid}`, { ...owner, method: 'PUT', body }),
    onSuccess: (saved) => client.setQueryData(formNotificationsQuery(fid).queryKey, saved),
  });
}
