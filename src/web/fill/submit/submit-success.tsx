import { useEffect, useRef } from 'react';
import { SUBMIT_SUCCESS_MESSAGE } from '#common/answer-limits.ts';
import type { PublicForm } from '#common/forms.ts';
import { RedirectNotice } from './redirect-notice.tsx';

type Props = {
  form: Pick<PublicForm, 'formTitle' | 'thankYouMessage' | 'redirectUrl'>;
  onRestart: () => void;
};

/** The end of the journey: what happened, the owner's thank-you, and the way on (their address, or answer again). */
export function SubmitSuccess({ form, onRestart }: Props) {
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
        Your response to <strong dir="auto">{form.formTitle}</strong> was sent.
      </p>
      {form.thankYouMessage ? (
        <p className="fill-owner-message" dir="auto">
          {form.thankYouMessage}
        </p>
      ) : null}
      {form.redirectUrl ? (
        <RedirectNotice url={form.redirectUrl} />
      ) : (
        <button type="button" className="button button-primary button-block" onClick={onRestart}>
          Submit another response
        </button>
      )}
    </section>
  );
}
