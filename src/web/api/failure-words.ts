import { isAway, type Failure, type Sent } from './failure.ts';

/**
 * The words for an answer that is not Easy Form's `{ error }`, or a fault of ours: a reverse proxy's HTML page
 * (nginx's 413, a 502 while the app restarts), a firewall's refusal. Loaded only when one comes (read-answer.ts),
 * so the customer's first screen does not carry them (docs/decisions/025); the service worker bundles them.
 */
export const WORDS = {
  serverFault: 'Something went wrong on our side. Try again in a moment.',
  away: 'Easy Form is not answering for a moment. Try again in a minute.',
  tooLarge: 'This is too large for the server to accept.',
  answers: 'Your answers are too large for the server to accept. Shorten the longest ones and try again.',
  file: 'This file is too large for the server to accept. Choose a smaller one.',
  /** Ends with the status, for whoever runs the site: a proxy or a firewall turned the request away. */
  unexpected:
    'Something on the way to Easy Form stopped this. Try again; if it keeps happening, tell whoever runs this site',
} as const;

/**
 * The failure a non-2xx answer means. `body` is the parsed JSON or null; our `{ error: { code, message } }` gives its
 * sentence for a 4xx, and a 5xx always shows our own.
 */
export function failureOf(status: number, body: unknown, sent?: Sent): Failure {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof error?.code === 'string' ? error.code : null;
  const ours = code !== null && typeof error?.message === 'string' ? error.message : null;
  if (status >= 500) {
    return { status, code: code ?? 'UNKNOWN', message: isAway(status) ? WORDS.away : WORDS.serverFault };
  }
  if (code !== null && ours !== null) return { status, code, message: ours };
  if (status === 413) return { status, code: 'PAYLOAD_TOO_LARGE', message: WORDS[sent ?? 'tooLarge'] };
  return { status, code: 'UNKNOWN', message: `${WORDS.unexpected} (error ${status}).` };
}
