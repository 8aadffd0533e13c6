import { useEffect, useRef } from 'react';

/** Offline after Submit: the response waits on this device, and the page says so until it is sent. */
export function SavedOnDevice({ sending }: { sending: boolean }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // As on the success screen: the form went away, so tell screen readers what took its place.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="fill-card fill-success fill-saved" aria-labelledby="fill-saved-title">
      <svg className="fill-success-icon" viewBox="0 0 48 48" width="64" height="64" aria-hidden="true">
        <circle cx="24" cy="24" r="24" fill="currentColor" />
        <path
          d={sending ? 'M24 13v17M16 22l8-9 8 9M15 35h18' : 'M24 12v17M16 21l8 8 8-8M15 35h18'}
          fill="none"
          stroke="#fff"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <h1 id="fill-saved-title" ref={heading} tabIndex={-1}>
        {sending ? 'Sending your response…' : 'Saved on this device'}
      </h1>
      <p role="status">
        {sending
          ? 'Your connection is back. Keep this page open for a moment.'
          : 'Saved on this device — it will be sent when you are back online.'}
      </p>
      <p>Your answers and files are kept here, so nothing needs to be typed again.</p>
    </section>
  );
}
