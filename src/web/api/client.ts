import type { Failure, Sent } from './failure.ts';
import { readAnswer } from './read-answer.ts';

/** Any non-2xx answer: the status, the server's code and a sentence fit to show. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The field a 400 names ("password: …"), if any. */
  get field(): string | null {
    const match = /^([\w.]+): /.exec(this.message);
    return this.code === 'VALIDATION_FAILED' && match?.[1] ? match[1] : null;
  }

  /** The message without its field prefix. */
  get detail(): string {
    return this.field ? this.message.slice(this.field.length + 2) : this.message;
  }
}

/** The sentences shown for a failure that carries no message of the server's: one wording wherever it shows. */
export const FAILURE = {
  offline: 'Could not reach Easy Form. Check your connection and try again.',
  timedOut: 'Easy Form did not answer in time. Check your connection and try again.',
  stalled: 'The upload stalled. Check your connection and try again.',
} as const;

/** A request that got no whole answer: status 0, which callers treat as "not reached" and try again. */
export const notReached = (why: 'offline' | 'timedOut' | 'stalled') =>
  new ApiError(0, why === 'offline' ? 'OFFLINE' : 'TIMEOUT', FAILURE[why]);

export const toApiError = ({ status, code, message }: Failure) => new ApiError(status, code, message);

/**
 * The ApiError for a non-2xx answer whose body (parsed JSON, or null) may hold the server's `{ error }`; its words
 * load only when one comes (failure-words.ts).
 */
export async function answerError(status: number, body: unknown, sent?: Sent): Promise<ApiError> {
  const { failureOf } = await import('./failure-words.ts');
  return toApiError(failureOf(status, body, sent));
}

type Options = {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  owner?: boolean;
  /**
   * Gives up on a request with no whole answer after this long (ms): a stalled connection on a phone can otherwise
   * hang a fetch for minutes. It fails as status 0, `TIMEOUT`, which callers treat as "not reached" (retried).
   */
  timeoutMs?: number;
  /** What is sent, for the words of a 413 that is not the server's (a proxy's page). */
  sent?: Sent;
  /** The strings a 2xx of ours always carries: one without them is not ours (read-answer.ts), not reached. */
  expects?: readonly string[];
};

/** The one place that speaks HTTP to the API. Owner calls carry the token; a 401 on one ends the session. */
export async function api<T>(
  path: string,
  { method = 'GET', body, headers = {}, owner = false, timeoutMs, sent, expects }: Options = {},
): Promise<T> {
  // Loaded only for owner calls: the customer's page never holds a session (docs/decisions/025, budget).
  const sessions = owner ? await import('./session.ts') : null;
  const session = sessions?.readSession();
  const deadline = timeoutMs === undefined ? null : new AbortController();
  const timer = deadline ? setTimeout(() => deadline.abort(), timeoutMs) : undefined;
  let answer: Awaited<ReturnType<typeof readAnswer>>;
  try {
    const response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(session ? { authorization: `Bearer ${session.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: deadline?.signal ?? null,
    });
    answer = await readAnswer(response, sent, expects);
  } catch {
    throw notReached(deadline?.signal.aborted ? 'timedOut' : 'offline');
  } finally {
    clearTimeout(timer);
  }
  if ('body' in answer) return answer.body as T;
  // A 2xx that is not ours (a captive portal's page or its `{}`), or one cut off by the deadline: Easy Form was not reached.
  if ('unreached' in answer) throw notReached(deadline?.signal.aborted ? 'timedOut' : 'offline');
  const { failure } = answer;
  const error = toApiError(failure);
  if (sessions && failure.status === 401) {
    sessions.endSessionAndSignIn();
  }
  throw error;
}
