import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './client.ts';

/** The browser's fetch as a stalled connection: no answer until the request's signal gives up on it. */
function stalledNetwork() {
  const aborted: string[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    return new Promise((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => {
        aborted.push(url);
        reject(new DOMException('The operation was aborted.', 'AbortError'));
      });
    });
  });
  return aborted;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('api() and its deadline', () => {
  it('gives up on a request with no answer at its deadline, not before, as not reached (TIMEOUT)', async () => {
    vi.useFakeTimers();
    const aborted = stalledNetwork();
    const outcome = api('/api/forms/owner-1', { method: 'POST', body: {}, timeoutMs: 20_000 }).catch(
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(19_999);
    expect(aborted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect((error as ApiError).message).toMatch(/did not answer in time/);
    expect(aborted).toEqual(['/api/forms/owner-1']);
  });

  it('leaves no timer behind once the answer has come', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        new Response(JSON.stringify({ _id: 's-1' }), { headers: { 'content-type': 'application/json' } }),
      ),
    );
    expect(await api('/api/forms/owner-1', { method: 'POST', body: {}, timeoutMs: 20_000 })).toEqual({
      _id: 's-1',
    });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells a connection that failed (OFFLINE) from one that timed out', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api('/api/publicForm/f-1', { timeoutMs: 20_000 })).rejects.toMatchObject({
      status: 0,
      code: 'OFFLINE',
    });
  });
});
