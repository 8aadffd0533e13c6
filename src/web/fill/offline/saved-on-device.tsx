import { useEffect, useRef } from 'react';

/** Offline after Submit: the response waits on this device, and the page says so until it is sent. */
export function SavedOnDevice({ formTitle, sending }: { formTitle: string; sending: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // As on the success screen: the form went away, so tell screen readers what took its place.
  useEffect(() => heading.current?.focus(), []);
  // Online and still waiting: Easy Form did not answer (restarting behind its proxy, say), not the connection.
  const online = navigator.onLine;
  const saved = online
    ? 'Saved on this device — Easy Form is not answering right now; it will be sent as soon as it does.'
    : 'Saved on this device — it will be sent when you are back online.';
  return (
    <section className="fill-card fill-success" aria-labelledby="fill-saved-title">
      {/* A clock while it waits, an arrow up while it goes; blue, not the green of "sent". */}
      <svg className="fill-success-icon" viewBox="0 0 48 48" width="64" height="64" aria-hidden="true">
        <circle cx="24" cy="24" r="24" fill="#1d4f91" />
        {sending ? (
          <path d="M24 35V14M15 22l9-9 9 9" {...STROKE} />
        ) : (
          <>
            <circle cx="24" cy="24" r="13" {...STROKE} />
            <path d="M24 17v7l5 4" {...STROKE} />
          </>
        )}
      </svg>
      <h1 id="fill-saved-title" ref={heading} tabIndex={-1}>
        {sending ? 'Sending your response…' : online ? 'Waiting for Easy Form' : 'Waiting for a connection'}
      </h1>
      <p role="status">{sending ? 'Keep this page open for a moment.' : saved}</p>
      <p>
        Your answers to <strong dir="auto">{formTitle}</strong> and your files are kept here, so nothing needs
        to be typed again. If you close this page, opening the form&apos;s link again sends it.
      </p>
    </section>
  );
}

const STROKE = {
  fill: 'none',
  stroke: '#fff',
  strokeWidth: 4,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;
