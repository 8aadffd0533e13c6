import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './client.ts';
import { uploadOwnerDocument } from './profile.ts';
import {
  appJson,
  CAPTIVE_PORTAL,
  NGINX,
  nginxPage,
  proxyTestServer,
  type ProxyAnswer,
} from './proxy-test-server.ts';

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

describe('api() behind a proxy that answers for Easy Form (owner screens)', () => {
  let answer: ProxyAnswer = appJson(200, {});
  const proxy = proxyTestServer(() => answer);

  it("words a proxy's own page plainly for the owner too, keeping the status at the end", async () => {
    proxy.route();
    answer = { status: 403, type: 'text/html', body: nginxPage(403, 'Forbidden') };
    await expect(api('/api/forms', { method: 'POST', body: {}, owner: true })).rejects.toMatchObject({
      status: 403,
      message:
        'Something on the way to Easy Form stopped this. Try again; if it keeps happening, tell whoever runs this site (error 403).',
    });
    answer = NGINX[413] as ProxyAnswer;
    await expect(api('/api/forms', { method: 'POST', body: {}, owner: true })).rejects.toMatchObject({
      status: 413,
      message: 'This is too large for the server to accept.',
    });
    answer = NGINX[504] as ProxyAnswer;
    await expect(api('/api/forms', { owner: true })).rejects.toMatchObject({
      status: 504,
      message: 'Easy Form is not answering for a moment. Try again in a minute.',
    });
  });

  it("uploads an owner's document: a captive portal's 200 page or JSON is no upload, and nginx's 413 is about the file", async () => {
    proxy.route();
    const passport = new File(['%PDF-1.4'], 'pan.pdf', { type: 'application/pdf' });
    for (const portal of [CAPTIVE_PORTAL, appJson(200, { status: 'ok' })]) {
      answer = portal;
      await expect(uploadOwnerDocument(passport)).rejects.toMatchObject({
        status: 0,
        message: 'Could not reach Easy Form. Check your connection and try again.',
      });
    }
    answer = NGINX[413] as ProxyAnswer;
    await expect(uploadOwnerDocument(passport)).rejects.toMatchObject({
      status: 413,
      message: 'This file is too large for the server to accept. Choose a smaller one.',
    });
  });
});
