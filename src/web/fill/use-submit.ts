import { useState } from 'react';
import type { PublicForm } from '#common/forms.ts';
import type { Question } from '#common/question-order.ts';
import { ApiError } from '../api/client.ts';
import { submitAnswers } from '../api/public-forms.ts';
import { finishDraft } from './fill-storage.ts';
import { newIdempotencyKey } from './idempotency-key.ts';
import { questionOfMessage, submissionBody } from './questions.ts';
import type { Draft } from './saved-fill.ts';

export type SubmitState =
  | { status: 'idle' }
  | { status: 'sending' }
  | { status: 'done'; submissionId: string }
  /** The answer never came: retrying sends the same key, so the server stores the submission at most once. */
  | { status: 'retry'; message: string }
  | { status: 'failed'; message: string };

type Options = {
  form: PublicForm;
  ownerId: string;
  draft: () => Draft;
  update: (change: (draft: Draft) => Draft) => void;
  /** A 400 that names a question: show it there. */
  onQuestionError: (question: Question, message: string) => void;
};

/** POST /api/forms/{ownerId} with an Idempotency-Key kept with the pending answers until the server answers. */
export function useSubmit({ form, ownerId, draft, update, onQuestionError }: Options) {
  const [state, setState] = useState<SubmitState>({ status: 'idle' });

  const submit = async () => {
    const key = draft().idempotencyKey ?? newIdempotencyKey();
    update((d) => ({ ...d, idempotencyKey: key }));
    const { values, files, website } = draft();
    setState({ status: 'sending' });
    try {
      const { _id } = await submitAnswers(ownerId, submissionBody(form, values, files, website), key);
      finishDraft(_id);
      setState({ status: 'done', submissionId: _id });
    } catch (error) {
      const failure = error instanceof ApiError ? error : new ApiError(0, 'OFFLINE', String(error));
      if (failure.status === 0 || failure.status >= 500) {
        setState({ status: 'retry', message: failure.message });
        return;
      }
      // The server answered and stored nothing: the next attempt is a new one.
      update((d) => ({ ...d, idempotencyKey: null }));
      const match = failure.status === 400 ? questionOfMessage(form, failure.message) : null;
      if (match) {
        setState({ status: 'idle' });
        onQuestionError(match.question, match.detail);
        return;
      }
      setState({ status: 'failed', message: failure.detail });
    }
  };

  return { state, submit, reset: () => setState({ status: 'idle' }) };
}
