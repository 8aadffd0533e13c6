import { FORM_CLOSED_MESSAGE, NOT_OPEN_YET_PREFIX } from '#common/answer-limits.ts';
import { MessageCard } from '../../ui/message-card.tsx';
import { CustomerHeader } from './customer-header.tsx';
import type { Unavailable } from './load-fill-form.ts';

/** The friendly dead end: a deleted or closed form, a page opened without its link, or no connection. */
export function FormUnavailable({ reason, message }: { reason: Unavailable; message?: string }) {
  return (
    <>
      <CustomerHeader />
      <UnavailableMessage reason={reason} message={message} />
    </>
  );
}

function UnavailableMessage({ reason, message }: { reason: Unavailable; message?: string }) {
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
  if (reason === 'closed' && message?.startsWith(NOT_OPEN_YET_PREFIX)) {
    return (
      <MessageCard icon="!" title="This form is not open yet">
        <p>{message.slice(NOT_OPEN_YET_PREFIX.length).trim()} Come back then to fill it in.</p>
      </MessageCard>
    );
  }
  if (reason === 'closed') {
    // The owner's own closed message, in their words (and line breaks), else ours.
    return (
      <MessageCard icon="!" title="This form is closed">
        {message && message !== FORM_CLOSED_MESSAGE ? (
          <p className="fill-owner-message" dir="auto">
            {message}
          </p>
        ) : (
          <p>It is no longer accepting responses. Ask whoever sent you the link if you need to reach them.</p>
        )}
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
