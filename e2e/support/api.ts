import type { RunningServer } from './server.ts';

export type CallInit = { method?: string; body?: unknown; token?: string };

/** The real HTTP API of a started server, as the owner's page would call it; a 4xx or 5xx throws with its body. */
export async function apiCall<T>(server: RunningServer, path: string, init: CallInit = {}): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    redirect: 'manual',
  });
  if (response.status >= 400)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (response.headers.get('content-type')?.includes('json') ? response.json() : undefined) as T;
}
