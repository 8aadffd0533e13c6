import { useEffect, useRef } from 'react';
import { SUBMIT_SUCCESS_MESSAGE } from '#common/answer-limits.ts';

/** The end of the journey: what happened, to which form, and the way to answer again. */
export function SubmitSuccess({ title, onRestart }: { title: string; onRestart: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Move focus here so screen readers announce the outcome in place of the form that just went away.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="fill-card fill-success" aria-labelledby="fill-success-title">
      <svg className="fill-success-icon" viewBox="0 0 48 48" width="64" height="64" aria-hidden="true">
        <circle cx="24" cy="24" r="24" fill="currentColor" />
        <path
          d="M14 24.5l6.5 6.5L34 17.5"
          fill="none"
          stroke="#fff"
          strokeWidth="4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <h1 id="fill-success-title" ref={heading} tabIndex={-1}>
        {SUBMIT_SUCCESS_MESSAGE}
      </h1>
      <p>
        Your response to <strong>{title}</strong> was sent.
      </p>
      <button type="button" className="button button-primary button-block" onClick={onRestart}>
        Submit another response
      </button>
    </section>
  );
}
