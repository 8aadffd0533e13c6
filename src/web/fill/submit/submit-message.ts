import type { SubmitState } from './use-submit.ts';

/** What the bar above the Submit button says about the last attempt. */
export function submitMessage(state: SubmitState): string | undefined {
  if (state.status === 'retry') return `Your answers were not sent. ${state.message}`;
  if (state.status === 'failed') return state.message;
  return undefined;
}
