import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_WEBHOOK_URL_LENGTH, MAX_WEBHOOKS_PER_FORM } from '#common/webhooks.ts';
import { ApiError } from '../api/client.ts';
import { useAddWebhook, webhooksQuery } from '../api/webhooks.ts';
import { TextField } from '../ui/text-field.tsx';
import { SecretOnce } from './secret-once.tsx';
import { WebhookItem } from './webhook-item.tsx';
import './webhooks.css';

/**
 * Where each new response is POSTed: the form's webhooks, each with its actions and delivery log (issue 12,
 * docs/decisions/023-webhooks.md).
 */
export function WebhookSettings({ fid }: { fid: string }) {
  const hooks = useQuery(webhooksQuery(fid));
  const add = useAddWebhook(fid);
  const [url, setUrl] = useState('');
  const [added, setAdded] = useState<{ url: string; secret: string } | null>(null);
  const titleId = useId();
  const introId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAdded(null);
    add.mutate(
      { url },
      {
        onSuccess: (hook) => {
          setUrl('');
          setAdded({ url: hook.url, secret: hook.secret });
        },
      },
    );
  };
  const addError = add.error instanceof ApiError ? add.error.detail : add.error?.message;
  const count = hooks.data?.webhooks.length ?? 0;
  const full = count >= MAX_WEBHOOKS_PER_FORM;

  return (
    <section className="card webhook-settings" aria-labelledby={titleId}>
      <h2 id={titleId}>Webhooks</h2>
      <p id={introId} className="muted webhook-intro">
        Each new response is sent as JSON to these addresses, signed with the webhook’s secret. Failed
        deliveries are retried for 24 hours.
      </p>
      <form className="webhook-add" noValidate onSubmit={submit} aria-describedby={introId}>
        <TextField
          label="Endpoint URL"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://example.com/hooks/easy-form"
          maxLength={MAX_WEBHOOK_URL_LENGTH}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={addError}
          hint={
            full ? `A form can have ${MAX_WEBHOOKS_PER_FORM} webhooks: remove one to add another.` : undefined
          }
        />
        <button type="submit" className="button button-primary" disabled={add.isPending || full}>
          {add.isPending ? 'Adding…' : 'Add webhook'}
        </button>
      </form>
      {added ? (
        <SecretOnce
          title="Webhook added"
          url={added.url}
          secret={added.secret}
          onDismiss={() => setAdded(null)}
        />
      ) : null}
      {hooks.isPending ? <p className="muted">Loading the webhooks…</p> : null}
      {hooks.isError ? <p role="alert">Could not load the webhooks: {hooks.error.message}</p> : null}
      {hooks.isSuccess && count === 0 ? (
        <p className="muted webhook-empty">No webhooks yet. Add an address above to send each response on.</p>
      ) : null}
      {hooks.isSuccess && count > 0 ? (
        <ul className="webhook-list">
          {hooks.data.webhooks.map((hook) => (
            <WebhookItem key={hook.id} fid={fid} hook={hook} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
