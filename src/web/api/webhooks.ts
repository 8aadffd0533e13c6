import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  DeliveryAttempts,
  NewWebhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookView,
} from '#common/webhooks.ts';
import { api } from './client.ts';

const owner = { owner: true } as const;
const base = (fid: string) => `/api/formWebhooks/${encodeURIComponent(fid)}`;
const hookPath = (fid: string, webhookId: string) => `${base(fid)}/${encodeURIComponent(webhookId)}`;

/** While any delivery is still being retried, the log is read again this often. */
const PENDING_REFRESH_MS = 5_000;

export const webhooksQuery = (fid: string) =>
  queryOptions({
    queryKey: ['forms', fid, 'webhooks'],
    queryFn: () => api<{ webhooks: WebhookView[] }>(base(fid), owner),
    refetchInterval: (query) =>
      query.state.data?.webhooks.some((w) => w.deliveries.some((d) => d.status === 'pending'))
        ? PENDING_REFRESH_MS
        : false,
  });

export const deliveryAttemptsQuery = (fid: string, webhookId: string, deliveryId: string) =>
  queryOptions({
    queryKey: ['forms', fid, 'webhooks', webhookId, 'deliveries', deliveryId],
    queryFn: () =>
      api<DeliveryAttempts>(
        `${hookPath(fid, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}`,
        owner,
      ),
  });

/** Every change reads the list again, so the log and the webhooks shown are the server's. */
function useWebhookMutation<Vars, Result>(fid: string, call: (vars: Vars) => Promise<Result>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: webhooksQuery(fid).queryKey }),
  });
}

/** Adds a webhook; the answer carries its secret, shown this once. */
export const useAddWebhook = (fid: string) =>
  useWebhookMutation(fid, (body: NewWebhook) =>
    api<WebhookView & { secret: string }>(base(fid), { ...owner, method: 'POST', body }),
  );

export const useDeleteWebhook = (fid: string) =>
  useWebhookMutation(fid, (webhookId: string) =>
    api<{ deleted: true }>(hookPath(fid, webhookId), { ...owner, method: 'DELETE' }),
  );

/** One signed example POST, sent at once; the answer is how the receiver took it. */
export const useSendTest = (fid: string) =>
  useWebhookMutation(fid, (webhookId: string) =>
    api<{ attempt: WebhookAttempt }>(`${hookPath(fid, webhookId)}/test`, { ...owner, method: 'POST' }),
  );

/** A failed delivery sent again, as a new delivery of the same response. */
export const useResendDelivery = (fid: string) =>
  useWebhookMutation(fid, ({ webhookId, deliveryId }: { webhookId: string; deliveryId: string }) =>
    api<{ delivery: WebhookDelivery }>(
      `${hookPath(fid, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/resend`,
      { ...owner, method: 'POST' },
    ),
  );

/** A new signing secret, shown this once; the old one stops at once. */
export const useRotateSecret = (fid: string) =>
  useWebhookMutation(fid, (webhookId: string) =>
    api<{ secret: string }>(`${hookPath(fid, webhookId)}/secret`, { ...owner, method: 'POST' }),
  );
