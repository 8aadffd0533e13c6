import { useState } from 'react';
import type { WebhookAttempt, WebhookView } from '#common/webhooks.ts';
import { useDeleteWebhook, useRotateSecret, useSendTest } from '../api/webhooks.ts';
import { ActionButton } from '../ui/action-button.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { attemptSummary, formatWhen } from './delivery-text.ts';
import { SecretOnce } from './secret-once.tsx';

type Confirming = 'remove' | 'rotate' | null;

/** One webhook: its address, Send test, a new secret, removal, and its delivery log. */
export function WebhookItem({ fid, hook }: { fid: string; hook: WebhookView }) {
  const test = useSendTest(fid);
  const zone = useOwnerTimeZone();
  const rotate = useRotateSecret(fid);
  const remove = useDeleteWebhook(fid);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const error = test.error ?? rotate.error ?? remove.error;

  return (
    <li className="webhook-item">
      <div className="webhook-head">
        <p className="webhook-url">{hook.url}</p>
        <p className="muted webhook-added">Added {formatWhen(hook.createdAt, zone)}</p>
      </div>
      <div className="webhook-actions">
        <ActionButton
          pending={test.isPending}
          pendingLabel="Sending…"
          aria-label={`Send test to ${hook.url}`}
          onClick={() => test.mutate(hook.id)}
        >
          Send test
        </ActionButton>
        <button
          type="button"
          className="button button-secondary"
          aria-label={`New secret for ${hook.url}`}
          onClick={() => setConfirming('rotate')}
        >
          New secret
        </button>
        <button
          type="button"
          className="button button-secondary button-danger-text"
          aria-label={`Remove ${hook.url}`}
          onClick={() => setConfirming('remove')}
        >
          Remove
        </button>
      </div>
      <p role="status" className="webhook-test-result">
        {test.data ? <TestOutcome attempt={test.data.attempt} /> : null}
      </p>
      {error ? (
        <p role="alert" className="webhook-error">
          {error.message}
        </p>
      ) : null}
      {secret ? (
        <SecretOnce title="New secret" url={hook.url} secret={secret} onDismiss={() => setSecret(null)} />
      ) : null}
      <DeliveryLog fid={fid} hook={hook} />
      {confirming === 'remove' ? (
        <ConfirmDialog
          title="Remove this webhook?"
          confirmLabel={remove.isPending ? 'Removing…' : 'Remove webhook'}
          onCancel={() => setConfirming(null)}
          onConfirm={() => remove.mutate(hook.id, { onSettled: () => setConfirming(null) })}
        >
          New responses will no longer be sent to {hook.url}, and its delivery log is deleted.
        </ConfirmDialog>
      ) : null}
      {confirming === 'rotate' ? (
        <ConfirmDialog
          title="Make a new secret?"
          confirmLabel={rotate.isPending ? 'Making…' : 'Make a new secret'}
          onCancel={() => setConfirming(null)}
          onConfirm={() =>
            rotate.mutate(hook.id, {
              onSuccess: (answer) => setSecret(answer.secret),
              onSettled: () => setConfirming(null),
            })
          }
        >
          The current secret stops working at once: deliveries from now on are signed with the new one, so
          update your receiver straight after.
        </ConfirmDialog>
      ) : null}
    </li>
  );
}

function TestOutcome({ attempt }: { attempt: WebhookAttempt }) {
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  return (
    <span className={ok ? 'is-ok' : 'is-failed'}>
      {ok ? 'Test delivered' : 'Test not delivered'}: {attemptSummary(attempt)}
    </span>
  );
}
