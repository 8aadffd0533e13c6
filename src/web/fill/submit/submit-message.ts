import type { SubmitState } from './use-submit.ts';

/** What the bar above the Submit button says about the last attempt. */
export function submitMessage(state: SubmitState): string | undefined {
  if (state.status === 'retry') return `Your answers were not sent. ${state.message}`;
  if (state.status === 'failed') return state.message;
  return undefined;
}

/** What the bar says while answers on the screen are wrong: how many. */
export const attentionMessage = (count: number, noun: 'answer' | 'file') =>
  `${count === 1 ? `One ${noun} needs` : `${count} ${noun}s need`} your attention.`;
