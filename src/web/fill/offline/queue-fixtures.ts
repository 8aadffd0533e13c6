import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import type { SubmissionBody } from '#common/submissions.ts';
import { randomId, type Queued } from './queue-store.ts';

/** What the device queue's tests share (queue.test.ts: the store and the sender; page-queue.test.ts: the page). */

export const FORM = '6f1c2b8e-4a1d-4c55-9a55-2d4f3f0e9c01';
export const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';

export function entry(body: Partial<SubmissionBody> = {}): Queued {
  return {
    key: `key-${randomId()}`,
    formId: FORM,
    ownerId: OWNER,
    body: { formStructureId: FORM, textObject: { t1: 'Ravi' }, fileObject: {}, ...body },
    state: 'queued',
    leaseUntil: 0,
  };
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The network as the queue sees it: each call answered by `answer`, every request recorded. */
export function network(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(answer(url, init));
  });
  return calls;
}

/** The hooks every file of the queue's tests needs; call once at its top level. */
export function queueTestHooks(): void {
  afterEach(() => vi.unstubAllGlobals());
  // fake-indexeddb copies values with Node's structuredClone, which turns jsdom's Blob into {}; a browser stores the
  // Blob itself. Records holding a Blob are copied one level deep here instead.
  const nodeClone = globalThis.structuredClone;
  beforeAll(() => {
    globalThis.structuredClone = ((value: unknown) =>
      value && typeof value === 'object' && Object.values(value).some((v) => v instanceof Blob)
        ? { ...value }
        : nodeClone(value)) as typeof structuredClone;
  });
  afterAll(() => {
    globalThis.structuredClone = nodeClone;
  });
}
