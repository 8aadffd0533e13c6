import { MessageCard } from '../ui/message-card.tsx';
import { CustomerHeader } from './customer-header.tsx';
import type { Unavailable } from './load-fill-form.ts';

/** The friendly dead end: a deleted or closed form, a page opened without its link, or no connection. */
export function FormUnavailable({ reason }: { reason: Unavailable }) {
  return (
    <>
      <CustomerHeader />
      <UnavailableMessage reason={reason} />
    </>
  );
}

function UnavailableMessage({ reason }: { reason: Unavailable }) {
  if (reason === 'offline') {
    return (
      <MessageCard icon="!" title="We could not load this form">
        <p>Check your connection, then try again.</p>
        <button
          type="button"
          className="button button-primary button-block"
          onClick={() => location.reload()}
        >
          Try again
        </button>
      </MessageCard>
    );
  }
  if (reason === 'closed') {
    return (
      <MessageCard icon="!" title="This form is closed">
        <p>It is no longer accepting responses. Ask whoever sent you the link if you need to reach them.</p>
      </MessageCard>
    );
  }
  return (
    <MessageCard icon="?" title="This form is no longer available">
      <p>Check the link with whoever sent it to you.</p>
      {reason === 'missing' ? (
        <p className="muted">Open the form from the link you were given to start filling it in.</p>
      ) : null}
    </MessageCard>
  );
}
