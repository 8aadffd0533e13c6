import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import { deliveryAttemptsQuery, useResendDelivery } from '../api/webhooks.ts';
import { paths } from '../paths.ts';
import { ActionButton } from '../ui/action-button.tsx';
import { useOwnerTimeZone } from '../ui/owner-time-zone.ts';
import { attemptSummary, formatWhen, STATUS_LABEL } from './delivery-text.ts';

/** The webhook's latest deliveries, newest first: how each went, every attempt on demand, Resend on a failed one. */
export function DeliveryLog({ fid, hook }: { fid: string; hook: WebhookView }) {
  const titleId = useId();
  return (
    <section className="delivery-log" aria-labelledby={titleId}>
      <h3 id={titleId}>Deliveries</h3>
      {hook.deliveries.length === 0 ? (
        <p className="muted">None yet: each new response is listed here with how the receiver answered.</p>
      ) : (
        <ul className="delivery-list">
          {hook.deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} fid={fid} webhookId={hook.id} delivery={delivery} />
          ))}
        </ul>
      )}
    </section>
  );
}

function DeliveryRow({
  fid,
  webhookId,
  delivery,
}: {
  fid: string;
  webhookId: string;
  delivery: WebhookDelivery;
}) {
  const resend = useResendDelivery(fid);
  const zone = useOwnerTimeZone();
  const [open, setOpen] = useState(false);
  const last = delivery.lastAttempt;
  const tries = `${delivery.attempts} ${delivery.attempts === 1 ? 'attempt' : 'attempts'}`;
  return (
    <li className="delivery-row">
      <div className="delivery-line">
        <span className={`delivery-status is-${delivery.status}`}>{STATUS_LABEL[delivery.status]}</span>
        <span className="delivery-when">{formatWhen(delivery.createdAt, zone)}</span>
        <Link className="delivery-response" to={paths.submitedForm.href(delivery.submissionId)}>
          View response
        </Link>
      </div>
      <p className="delivery-detail muted">
        {last ? `${tries}, last ${formatWhen(last.at, zone)}: ${attemptSummary(last)}` : 'Not sent yet'}
        {delivery.nextAttemptAt && delivery.attempts > 0
          ? `. Next try ${formatWhen(delivery.nextAttemptAt, zone)}`
          : ''}
      </p>
      {delivery.status === 'failed' ? (
        <div className="delivery-actions">
          <ActionButton
            pending={resend.isPending}
            pendingLabel="Resending…"
            onClick={() => resend.mutate({ webhookId, deliveryId: delivery.id })}
          >
            Resend
          </ActionButton>
          {resend.isError ? (
            <span role="alert" className="webhook-error">
              {resend.error.message}
            </span>
          ) : null}
        </div>
      ) : null}
      {delivery.attempts > 0 ? (
        <details className="delivery-attempts" onToggle={(e) => setOpen(e.currentTarget.open)}>
          <summary>All attempts</summary>
          {open ? <AttemptList fid={fid} webhookId={webhookId} deliveryId={delivery.id} /> : null}
        </details>
      ) : null}
    </li>
  );
}

function AttemptList({ fid, webhookId, deliveryId }: { fid: string; webhookId: string; deliveryId: string }) {
  const attempts = useQuery(deliveryAttemptsQuery(fid, webhookId, deliveryId));
  const zone = useOwnerTimeZone();
  if (attempts.isPending) return <p className="muted">Loading…</p>;
  if (attempts.isError) return <p role="alert">Could not load the attempts: {attempts.error.message}</p>;
  return (
    <ol className="attempt-list">
      {attempts.data.attempts.map((attempt) => (
        <li key={attempt.at}>
          <span className="attempt-when">{formatWhen(attempt.at, zone)}</span> {attemptSummary(attempt)}
        </li>
      ))}
    </ol>
  );
}
