import { useEffect, useRef, useState } from 'react';
import { NOT_ON_FORM } from '#common/answer-limits.ts';
import type { PublicForm } from '#common/forms.ts';
import type { Question } from '#common/question-order.ts';
import { ApiError, FAILURE } from '../../api/client.ts';
import { submitAnswers } from '../../api/public-forms.ts';
import type { Outcome } from '../offline/page-queue.ts';
import { questionOfMessage, submissionBody } from '../questions/questions.ts';
import { finishDraft } from '../storage/fill-storage.ts';
import type { Draft } from '../storage/fill-storage.ts';
import { newIdempotencyKey } from './idempotency-key.ts';

export type SubmitState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'done'; submissionId: string }
  /** The answer never came: retrying sends the same key, so the server stores the submission at most once. */
  | { status: 'retry'; message: string }
  | { status: 'failed'; message: string }
  /** No connection: kept on this device until it is sent (docs/decisions/025); `sending` while it goes. */
  | { status: 'saved'; sending: boolean };

export const FORM_CHANGED = 'This form changed since you opened it. Reload the page: your answers are kept.';

type Options = {
  form: PublicForm;
  ownerId: string;
  draft: () => Draft;
  update: (change: (draft: Draft) => Draft) => void;
  /** A 400 that names a question: show it there. */
  onQuestionError: (question: Question, message: string) => void;
  /**
   * A paged form's: what of the draft is sent (the answers of the questions that apply), with the form's `version`,
   * so the server judges the answers against the form this page drew (docs/decisions/042-pages-and-conditions.md).
   */
  paged?: { applying: (draft: Draft) => Draft };
};

/**
 * POST /api/forms/{ownerId} with an Idempotency-Key kept with the pending answers until the server answers. A
 * failure on the way is retried with the same key; with no connection, the submission goes to the device queue.
 */
export function useSubmit({ form, ownerId, draft, update, onQuestionError, paged }: Options) {
  const [state, setState] = useState<SubmitState>({ status: 'idle' });
  const unfollow = useRef<(() => void) | null>(null);

  const succeed = (submissionId: string) => {
    finishDraft(submissionId);
    setState({ status: 'done', submissionId });
  };

  // The server answered and stored nothing: the next attempt is a new one.
  const refuse = (failure: ApiError) => {
    update((d) => ({ ...d, idempotencyKey: null }));
    const match = failure.status === 400 ? questionOfMessage(form, failure.message) : null;
    if (match && match.detail !== NOT_ON_FORM) {
      setState({ status: 'idle' });
      return onQuestionError(match.question, match.detail);
    }
    // A question this page shows that is gone, or one it does not show: the owner changed the form since the page
    // loaded it (while the answers waited offline, say). Only a fresh copy can be answered; the draft is kept.
    setState({
      status: 'failed',
      message: match || failure.code === 'VALIDATION_FAILED' ? FORM_CHANGED : failure.detail,
    });
  };

  const outcome: Outcome = {
    saved: (sending) => setState({ status: 'saved', sending }),
    sent: succeed,
    refused: (failure, uploaded) => {
      // A file gone from the device is no answer any more: its slot shows empty, with the refusal at its question.
      const gone = failure.code === 'FILE_MISSING' ? questionOfMessage(form, failure.message) : null;
      update((d) => {
        const files = Object.entries({ ...d.files, ...uploaded }).filter(
          ([id]) => id !== gone?.question.field._id,
        );
        return { ...d, files: Object.fromEntries(files) };
      });
      refuse(failure);
    },
    retry: (message) => setState({ status: 'retry', message }),
  };

  /** Hands over to the device queue's module, loaded only now (docs/decisions/025: not on the first screen). */
  const offline = (run: (queue: typeof import('../offline/page-queue.ts')) => Promise<() => void>) =>
    import('../offline/page-queue.ts').then(run).then(
      (stop) => {
        unfollow.current?.();
        unfollow.current = stop;
      },
      () => outcome.retry(FAILURE.offline),
    );

  // Answers saved with a key were submitted and never answered: if they wait in the queue, show it and send them.
  const opened = useRef(draft().idempotencyKey);
  useEffect(() => {
    const key = opened.current;
    if (key) void offline((queue) => queue.resume(key, outcome));
    return () => unfollow.current?.();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the answers the page opened with
  }, []);

  const submit = async () => {
    const key = draft().idempotencyKey ?? newIdempotencyKey();
    update((d) => ({ ...d, idempotencyKey: key }));
    const { values, files, website } = paged ? paged.applying(draft()) : draft();
    const body = submissionBody(form, values, files, website, draft().hidden);
    if (paged && form.version !== undefined) body.version = form.version;
    setState({ status: 'sending' });
    // A file picked while offline is still on the device: the queue uploads it before it submits.
    if (!Object.values(files).some((list) => list.some((f) => f.deleteId.startsWith('local:')))) {
      try {
        const { _id } = await submitAnswers(ownerId, body, key);
        return succeed(_id);
      } catch (error) {
        const failure = error instanceof ApiError ? error : new ApiError(0, 'OFFLINE', String(error));
        // A refusal is final; anything that may pass on another try goes to the retries and the queue.
        if (failure.status !== 0 && failure.status < 500 && failure.status !== 408 && failure.status !== 429)
          return refuse(failure);
      }
    }
    await offline((queue) => queue.retryOrQueue({ key, formId: form._id, ownerId, body }, outcome));
  };

  return { state, submit, reset: () => setState({ status: 'idle' }) };
}
