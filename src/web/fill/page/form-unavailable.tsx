import type { ReactNode } from 'react';
import { FORM_CLOSED_MESSAGE, NOT_OPEN_YET_PREFIX } from '#common/answer-limits.ts';
import type { ClosedFormLook } from '#common/closed-form.ts';
import { MessageCard } from '../../ui/message-card.tsx';
import { CustomerHeader } from './customer-header.tsx';
import { FillLayout } from './fill-layout.tsx';
import { FormHeading } from './form-heading.tsx';
import type { Unavailable } from './load-fill-form.ts';

type Props = { reason: Unavailable; message?: string; look?: ClosedFormLook };

/**
 * The friendly dead end: a deleted or closed form, a page opened without its link, or no connection. A closed form
 * whose look is known shows which form it is: its title on its colours (server/message-html.ts closedFormHtml).
 */
export function FormUnavailable({ reason, message, look }: Props) {
  if (reason === 'closed' && look) {
    const { title, text } = closedWords(message);
    return (
      <FillLayout form={look} title={`Closed: ${look.formTitle}`}>
        <FormHeading form={{ ...look, description: '' }} />
        <section className="fill-card fill-closed" aria-labelledby="fill-closed-title">
          <div className="icon-hero" aria-hidden="true">
            !
          </div>
          <h2 id="fill-closed-title">{title}</h2>
          {text}
        </section>
      </FillLayout>
    );
  }
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
  if (reason === 'closed') {
    const { title, text } = closedWords(message);
    return (
      <MessageCard icon="!" title={title}>
        {text}
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

/** What a closed form says: when it opens, or the owner's own closed message in their words (and line breaks), else ours. */
function closedWords(message: string | undefined): { title: string; text: ReactNode } {
  if (message?.startsWith(NOT_OPEN_YET_PREFIX)) {
    return {
      title: 'This form is not open yet',
      text: <p>{message.slice(NOT_OPEN_YET_PREFIX.length).trim()} Come back then to fill it in.</p>,
    };
  }
  return {
    title: 'This form is closed',
    text:
      message && message !== FORM_CLOSED_MESSAGE ? (
        <p className="fill-owner-message" dir="auto">
          {message}
        </p>
      ) : (
        <p>It is no longer accepting responses. Ask whoever sent you the link if you need to reach them.</p>
      ),
  };
}
