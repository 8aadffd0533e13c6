/**
 * What a failed answer is, for read-answer.ts and the words that name it (failure-words.ts, loaded only when one
 * comes). No zod, no React: the service worker runs this too.
 */
export type Failure = { status: number; code: string; message: string };

/** What was sent, for the words of a 413 that is not ours. */
export type Sent = 'answers' | 'file';

/**
 * 502, 503, 504: the app is not there for a moment (restarting behind its proxy, its database away), so what was
 * sent never got in: like no connection, the customer's answers wait on the device and are sent when it is back.
 */
export const isAway = (status: number) => status === 502 || status === 503 || status === 504;
