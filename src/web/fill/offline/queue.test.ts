import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { KEYS } from '../storage/fill-storage.ts';
import { resume, tidyDevice } from './page-queue.ts';
import { entry, FORM, json, network, OWNER, queueTestHooks } from './queue-fixtures.ts';
import {
  claimQueued,
  forgetShown,
  putLocalFile,
  putQueued,
  randomId,
  readLocalFile,
  readQueued,
  renewClaim,
  SHOWN_KEEP_MS,
  UNNAMED_FILE_KEEP_MS,
} from './queue-store.ts';
import { LEASE_MS, sendQueued } from './send-queued.ts';

queueTestHooks();

describe('the device queue (IndexedDB)', () => {
  it('claims a queued submission once, and again only after the lease lapses', async () => {
    const queued = entry();
    await putQueued(queued);
    const now = Date.now();
    const first = await claimQueued(queued.key, 1000, 'tab', now);
    expect(first?.state).toBe('sending');
    expect(await claimQueued(queued.key, 1000, 'worker', now + 10)).toBeNull();
    // A tab that died while sending: its claim lapses, and another may take it.
    expect((await claimQueued(queued.key, 1000, 'worker', now + 2000))?.holder).toBe('worker');
    // The tab's renewal comes too late: the claim is the worker's now, and stays so.
    expect(await renewClaim(queued.key, 1000, 'tab', now + 2001)).toBeNull();
    expect(await renewClaim(queued.key, 1000, 'worker', now + 2500)).toMatchObject({
      leaseUntil: now + 3500,
    });
  });

  it('never hands the same submission to two claims at once', async () => {
    const queued = entry();
    await putQueued(queued);
    const claims = await Promise.all(
      Array.from({ length: 8 }, () => claimQueued(queued.key, 60_000, randomId())),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  it('sends a queued submission once with its Idempotency-Key, and not again once sent', async () => {
    const queued = entry();
    await putQueued(queued);
    const calls = network(() => json(200, { _id: 'submission-1' }));
    const [a, b] = await Promise.all([sendQueued(queued.key), sendQueued(queued.key)]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(`/api/forms/${OWNER}`);
    expect(new Headers(calls[0]?.init.headers).get('idempotency-key')).toBe(queued.key);
    expect([a.entry?.state, b.entry?.state]).toContain('sent');
    // One of the two found the other at it and did not try.
    expect([a.tried, b.tried].sort()).toEqual([false, true]);
    expect((await readQueued(queued.key))?.submissionId).toBe('submission-1');
    expect(await sendQueued(queued.key)).toMatchObject({ entry: { state: 'sent' }, tried: false });
    expect(calls).toHaveLength(1);
  });

  it('keeps an entry that ended, without its answers, until a day after a page showed it', async () => {
    const queued = entry({ textObject: { t1: 'Ravi Kumar' } });
    await putQueued(queued);
    network(() => json(200, { _id: 'submission-9' }));
    // Sent with no page open (the worker's Background Sync): kept, however long, for the next visit to show.
    await sendQueued(queued.key);
    const kept = await readQueued(queued.key);
    expect(kept).toMatchObject({ state: 'sent', submissionId: 'submission-9' });
    expect(JSON.stringify(kept)).not.toContain('Ravi Kumar');
    await forgetShown(Date.now() + 30 * SHOWN_KEEP_MS);
    expect(await readQueued(queued.key)).toBeDefined();
    const seen: string[] = [];
    const before = Date.now();
    const stop = await resume(queued.key, {
      saved: () => seen.push('saved'),
      sent: (id) => seen.push(`sent ${id}`),
      refused: () => seen.push('refused'),
      retry: () => seen.push('retry'),
    });
    onTestFinished(stop);
    await vi.waitFor(() => expect(seen).toEqual(['sent submission-9']));
    await vi.waitFor(async () =>
      expect((await readQueued(queued.key))?.shownAt).toBeGreaterThanOrEqual(before),
    );
    const shownAt = (await readQueued(queued.key))?.shownAt ?? 0;
    const waiting = entry();
    await putQueued(waiting);
    await forgetShown(shownAt + SHOWN_KEEP_MS - 1);
    expect(await readQueued(queued.key)).toBeDefined();
    await forgetShown(shownAt + SHOWN_KEEP_MS);
    expect(await readQueued(queued.key)).toBeUndefined();
    // One still waiting is never forgotten.
    expect(await readQueued(waiting.key)).toMatchObject({ state: 'queued' });
  });

  it('forgets a file kept on the device a day after nothing names it, never one the queue or the saved answers name', async () => {
    const now = Date.now();
    const dayOld = now - UNNAMED_FILE_KEEP_MS;
    const keep = (id: string, keptAt?: number) =>
      putLocalFile({ id, blob: new Blob([id]), fileName: `${id}.png`, keptAt });
    await keep('in-queue', dayOld);
    await keep('in-answers', dayOld);
    await keep('left-behind', dayOld);
    await keep('left-before-dates'); // kept before the time was recorded
    await keep('just-picked', now - 60_000); // the page has not saved its answer yet
    await putQueued(
      entry({ fileObject: { f1: { name: 'Photo', deleteId: 'local:in-queue', originalName: 'a.png' } } }),
    );
    const answers = { f2: { name: 'Scan', deleteId: 'local:in-answers', originalName: 'b.png' } };
    localStorage.setItem(
      KEYS.draft,
      JSON.stringify({ formId: FORM, values: {}, files: answers, website: '', idempotencyKey: null }),
    );
    onTestFinished(() => localStorage.removeItem(KEYS.draft));

    await tidyDevice();
    const left = async (id: string) => (await readLocalFile(id)) !== undefined;
    expect({
      inQueue: await left('in-queue'),
      inAnswers: await left('in-answers'),
      leftBehind: await left('left-behind'),
      leftBeforeDates: await left('left-before-dates'),
      justPicked: await left('just-picked'),
    }).toEqual({
      inQueue: true,
      inAnswers: true,
      leftBehind: false,
      leftBeforeDates: false,
      justPicked: true,
    });
    // Saved answers that cannot be read name nothing: the page would start over without them.
    localStorage.setItem(KEYS.draft, '{not json');
    await tidyDevice();
    expect(await left('in-answers')).toBe(false);
    expect(await left('in-queue')).toBe(true);
  });

  it('keeps its claim while a slow send goes on past the lease, and lets go of it when done', async () => {
    // The heartbeat is a setInterval: the test moves it on; IndexedDB and the clock run as they are.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => void vi.useRealTimers());
    const queued = entry();
    await putQueued(queued);
    let answer: (response: Response) => void = () => undefined;
    const calls = network(() => new Promise<Response>((resolve) => (answer = resolve)));
    const sending = sendQueued(queued.key);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    const claimed = await readQueued(queued.key);
    expect(claimed).toMatchObject({ state: 'sending', leaseUntil: expect.any(Number) as number });
    const firstLease = claimed?.leaseUntil ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 5));
    vi.advanceTimersByTime(LEASE_MS);
    await vi.waitFor(async () =>
      expect((await readQueued(queued.key))?.leaseUntil).toBeGreaterThan(firstLease),
    );
    // Past the first lease, another sender still finds it taken.
    expect(await claimQueued(queued.key, LEASE_MS, 'other tab', firstLease + 1)).toBeNull();
    answer(json(200, { _id: 'submission-7' }));
    expect((await sending).entry).toMatchObject({ state: 'sent', leaseUntil: 0, holder: undefined });
    // Stopped with the send: no renewal puts a lease back on the sent entry.
    vi.advanceTimersByTime(LEASE_MS);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await readQueued(queued.key))?.leaseUntil).toBe(0);
    expect(calls).toHaveLength(1);
  });

  it('sends at once an entry whose sender went away mid-send (a reload), when it gets the Web Lock', async () => {
    // Web Locks as the browser has them: this caller gets the key's lock unless `held` says another sender has it.
    let held = false;
    const request = (_: string, __: unknown, send: (lock: object | null) => Promise<unknown>) =>
      send(held ? null : {});
    Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
    onTestFinished(() => void Reflect.deleteProperty(navigator, 'locks'));
    const queued = entry();
    await putQueued(queued);
    // The tab that was sending it was reloaded: its lease runs on, but its lock went with it.
    await claimQueued(queued.key, LEASE_MS, 'reloaded tab');
    const calls = network(() => json(200, { _id: 'submission-9' }));
    held = true;
    expect((await sendQueued(queued.key)).entry?.state).toBe('sending');
    expect(calls).toHaveLength(0);
    held = false;
    expect((await sendQueued(queued.key)).entry).toMatchObject({
      state: 'sent',
      submissionId: 'submission-9',
    });
    expect(calls).toHaveLength(1);
  });

  it('keeps a submission that could not reach the server, ready to be sent again', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const queued = entry();
    await putQueued(queued);
    network(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await sendQueued(queued.key)).toMatchObject({ entry: { state: 'queued' }, tried: true });
    expect((await claimQueued(queued.key, 1000, 'tab'))?.state).toBe('sending');
  });

  it('brings a refused submission back with the reason the server gave', async () => {
    const queued = entry();
    await putQueued(queued);
    network(() =>
      json(410, { error: { code: 'FORM_CLOSED', message: 'This form is no longer accepting responses' } }),
    );
    const { entry: refused } = await sendQueued(queued.key);
    expect(refused?.state).toBe('refused');
    expect(refused?.refusal).toEqual({
      status: 410,
      code: 'FORM_CLOSED',
      message: 'This form is no longer accepting responses',
    });
  });
});
