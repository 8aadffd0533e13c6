import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import type { SubmissionBody } from '#common/submissions.ts';
import { SUBMIT_TIMEOUT_MS, uploadDeadlineMs } from '../../api/timeouts.ts';
import { resume, type Outcome } from './page-queue.ts';
import {
  changeQueued,
  claimQueued,
  forgetShown,
  putLocalFile,
  putQueued,
  readLocalFile,
  randomId,
  readQueued,
  renewClaim,
  SHOWN_KEEP_MS,
  type Queued,
} from './queue-store.ts';
import { LEASE_MS, QUEUE_CHANNEL, sendQueued } from './send-queued.ts';

/** Taken before any test fakes the timers: a real pause, for IndexedDB and BroadcastChannel to run. */
const realSetTimeout = globalThis.setTimeout;
const realPause = () => new Promise((resolve) => realSetTimeout(resolve, 1));

const FORM = '6f1c2b8e-4a1d-4c55-9a55-2d4f3f0e9c01';
const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';
let serial = 0;

function entry(body: Partial<SubmissionBody> = {}): Queued {
  return {
    key: `key-${++serial}-${Math.random()}`,
    formId: FORM,
    ownerId: OWNER,
    body: { formStructureId: FORM, textObject: { t1: 'Ravi' }, fileObject: {}, ...body },
    state: 'queued',
    leaseUntil: 0,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The network as the queue sees it: each call answered by `answer`, every request recorded. */
function network(answer: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    calls.push({ url, init });
    return Promise.resolve(answer(url, init));
  });
  return calls;
}

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

  it('uploads a file kept on the device first, then submits the answer that names the upload', async () => {
    await putLocalFile({ id: 'blob-1', blob: new Blob(['%PDF-1.4']), fileName: 'booking.pdf' });
    const queued = entry({
      fileObject: { f1: { name: 'Booking', deleteId: 'local:blob-1', originalName: 'booking.pdf' } },
    });
    await putQueued(queued);
    const calls = network((url) =>
      url.startsWith('/api/profile')
        ? json(200, { file: '/files/abc', _id: 'upload-1', name: 'booking.pdf' })
        : json(200, { _id: 'submission-2' }),
    );
    expect((await sendQueued(queued.key)).entry?.state).toBe('sent');
    expect(calls.map((c) => c.url)).toEqual([`/api/profile?formId=${FORM}`, `/api/forms/${OWNER}`]);
    const sent = JSON.parse(String(calls[1]?.init.body)) as SubmissionBody;
    expect(sent.fileObject?.f1).toEqual({
      name: 'Booking',
      value: '/files/abc',
      deleteId: 'upload-1',
      originalName: 'booking.pdf',
    });
    expect(await readLocalFile('blob-1')).toBeUndefined();
  });

  it('names the file question when the server refuses a file kept on the device', async () => {
    await putLocalFile({ id: 'blob-2', blob: new Blob(['x']), fileName: 'huge.png' });
    const queued = entry({
      fileObject: { f1: { name: 'Photo', deleteId: 'local:blob-2', originalName: 'huge.png' } },
    });
    await putQueued(queued);
    network(() => json(413, { error: { code: 'TOO_LARGE', message: 'Files up to 10 MB' } }));
    const { entry: refused } = await sendQueued(queued.key);
    expect(refused?.refusal).toMatchObject({ status: 413, fieldId: 'f1', message: 'Files up to 10 MB' });
  });

  it('gives up on a stalled upload and a stalled submit at their deadlines and sends each again, once', async () => {
    // Each try's deadline is an AbortSignal.timeout; here the test decides when each one passes.
    const deadlines: { ms: number; pass: () => void }[] = [];
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockImplementation((ms) => {
      const controller = new AbortController();
      deadlines.push({ ms, pass: () => controller.abort(new DOMException('timed out', 'TimeoutError')) });
      return controller.signal;
    });
    onTestFinished(() => timeout.mockRestore());
    const blob = new Blob(['%PDF-1.4 '.repeat(5000)]);
    await putLocalFile({ id: 'blob-3', blob, fileName: 'ticket.pdf' });
    const queued = entry({
      fileObject: { f1: { name: 'Ticket', deleteId: 'local:blob-3', originalName: 'ticket.pdf' } },
    });
    await putQueued(queued);
    // The first try of each request stalls: no answer until its deadline aborts it, as fetch does.
    const tried = new Set<string>();
    const calls = network((url, init) => {
      const kind = url.split('?')[0] ?? url;
      if (!tried.has(kind)) {
        tried.add(kind);
        return new Promise<Response>((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        );
      }
      return kind === '/api/profile'
        ? json(200, { file: '/files/def', _id: 'upload-3', name: 'ticket.pdf' })
        : json(200, { _id: 'submission-6' });
    });
    const sending = sendQueued(queued.key);
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    deadlines[0]?.pass();
    await vi.waitFor(() => expect(calls).toHaveLength(3), { timeout: 5000 });
    deadlines[2]?.pass();
    expect((await sending).entry?.state).toBe('sent');
    expect(calls.map((c) => c.url.split('?')[0])).toEqual([
      '/api/profile',
      '/api/profile',
      `/api/forms/${OWNER}`,
      `/api/forms/${OWNER}`,
    ]);
    // The upload's deadline grows with the file; the submit's is fixed; both tries of the submit carry one key.
    expect(deadlines.map((d) => d.ms)).toEqual([
      uploadDeadlineMs(blob.size),
      uploadDeadlineMs(blob.size),
      SUBMIT_TIMEOUT_MS,
      SUBMIT_TIMEOUT_MS,
    ]);
    const keys = calls.slice(2).map((c) => new Headers(c.init.headers).get(IDEMPOTENCY_HEADER));
    expect(keys).toEqual([queued.key, queued.key]);
  });

  describe('a page following a waiting submission', () => {
    /** What the page shows, as the queue reports it. */
    function screen() {
      const seen: string[] = [];
      const outcome: Outcome = {
        saved: (sending) => seen.push(sending ? 'sending' : 'saved'),
        sent: (id) => seen.push(`sent ${id}`),
        refused: (failure) => seen.push(`refused ${failure.code}`),
        retry: (message) => seen.push(`retry ${message}`),
      };
      return { seen, outcome };
    }

    it('sends it itself when another sender (the worker) held it just after the connection came back and found no network', async () => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      const queued = entry();
      await putQueued(queued);
      const calls = network(() => json(200, { _id: 'submission-3' }));
      // The worker's Background Sync took it first; the page's own try, on the `online` event, finds it taken.
      await claimQueued(queued.key, 60_000, 'worker');
      const { seen, outcome } = screen();
      onTestFinished(await resume(queued.key, outcome));
      await vi.waitFor(() => expect(seen).toContain('sending'));
      expect(calls).toHaveLength(0);
      // The worker's network was not back yet: its try ends with the submission waiting again, and it tells the pages.
      await changeQueued(queued.key, (e) => ({ ...e, state: 'queued', leaseUntil: 0 }));
      const channel = new BroadcastChannel(QUEUE_CHANNEL);
      channel.postMessage(queued.key);
      channel.close();
      await vi.waitFor(() => expect(seen.at(-1)).toBe('sent submission-3'), { timeout: 5000 });
      expect(calls).toHaveLength(1);
    });

    it('sends it within a few seconds once another sender that held it for a while gives it back', async () => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      const queued = entry();
      await putQueued(queued);
      const calls = network(() => json(200, { _id: 'submission-8' }));
      // Another sender (the worker, on a slow connection) holds it and keeps renewing its short lease, so the page
      // looks at it several times as each lease would lapse and finds it still held.
      await claimQueued(queued.key, 300, 'worker');
      const renewing = setInterval(() => void renewClaim(queued.key, 300, 'worker'), 100);
      onTestFinished(() => clearInterval(renewing));
      const { seen, outcome } = screen();
      onTestFinished(await resume(queued.key, outcome));
      await new Promise((resolve) => setTimeout(resolve, 3000));
      expect(seen.at(-1)).toBe('sending');
      expect(calls).toHaveLength(0);
      // Its try fails in the end and it gives the submission back: none of the page's looks was a failed try of
      // its own, so the page sends it after its first, shortest wait, not a back-off grown by the looks.
      clearInterval(renewing);
      await changeQueued(queued.key, (e) => ({ ...e, state: 'queued', leaseUntil: 0, holder: undefined }));
      const channel = new BroadcastChannel(QUEUE_CHANNEL);
      channel.postMessage(queued.key);
      channel.close();
      const givenBack = Date.now();
      await vi.waitFor(() => expect(seen.at(-1)).toBe('sent submission-8'), { timeout: 8000 });
      expect(Date.now() - givenBack).toBeLessThan(2500);
      expect(calls).toHaveLength(1);
    }, 15_000);

    it('shows it sent in every tab following it, whichever tab read it first', async () => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      const queued = entry();
      await putQueued(queued);
      const first = screen();
      onTestFinished(await resume(queued.key, first.outcome));
      await vi.waitFor(() => expect(first.seen).toContain('saved'));
      // Another sender sent it; its message has not reached the first tab yet when a second tab opens and reads it.
      await changeQueued(queued.key, (e) => ({ ...e, state: 'sent', submissionId: 'submission-10' }));
      const second = screen();
      onTestFinished(await resume(queued.key, second.outcome));
      await vi.waitFor(() => expect(second.seen.at(-1)).toBe('sent submission-10'));
      const channel = new BroadcastChannel(QUEUE_CHANNEL);
      channel.postMessage(queued.key);
      channel.close();
      await vi.waitFor(() => expect(first.seen.at(-1)).toBe('sent submission-10'));
    });

    it('takes over one whose sender went away mid-send once its lease lapses, and sends it once', async () => {
      vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
      const queued: Queued = { ...entry(), state: 'sending', leaseUntil: Date.now() + 300 };
      await putQueued(queued);
      const calls = network(() => json(200, { _id: 'submission-4' }));
      const { seen, outcome } = screen();
      onTestFinished(await resume(queued.key, outcome));
      await vi.waitFor(() => expect(seen.at(-1)).toBe('sent submission-4'), { timeout: 5000 });
      expect(seen[0]).toBe('sending');
      expect(calls).toHaveLength(1);
    });

    it('waits for the `online` event, not a timer, while the browser says it is offline', async () => {
      const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
      const queued = entry();
      await putQueued(queued);
      const calls = network(() => json(200, { _id: 'submission-5' }));
      const { seen, outcome } = screen();
      onTestFinished(await resume(queued.key, outcome));
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(calls).toHaveLength(0);
      expect(seen.at(-1)).toBe('saved');
      onLine.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(seen.at(-1)).toBe('sent submission-5'));
      expect(calls).toHaveLength(1);
    });

    it('ends sent once, or refused, shown so in every tab, whatever the tabs, the worker and the network do (generated)', async () => {
      // One submission with a file kept on the device; one to three tabs following it from different moments; the
      // worker's Background Sync trying it at other moments; perhaps a sender that died holding it; the browser
      // offline for a while; then a network whose first requests are lost on the way, or reach the server and lose
      // the answer; and perhaps a form that closed meanwhile. Time is simulated (two minutes in steps); IndexedDB and
      // BroadcastChannel run as they are.
      const scenario = fc.record({
        tabs: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 3 }),
        worker: fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 3 }),
        deadHolder: fc.boolean(),
        closed: fc.boolean(),
        offlineFor: fc.integer({ min: 0, max: 10_000 }),
        fates: fc.array(fc.constantFrom('down', 'lost', 'answered'), { maxLength: 6 }),
        latency: fc.integer({ min: 10, max: 800 }),
      });
      await fc.assert(
        fc.asyncProperty(scenario, async (s) => {
          vi.useFakeTimers({
            toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
          });
          const stops: Promise<() => void>[] = [];
          try {
            let online = s.offlineFor === 0;
            vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => online);
            await putLocalFile({ id: `blob-p${serial}`, blob: new Blob(['%PDF-1.4']), fileName: 'pass.pdf' });
            const file = { name: 'Pass', deleteId: `local:blob-p${serial}`, originalName: 'pass.pdf' };
            const queued = entry({ fileObject: { f1: file } });
            const lease = s.deadHolder
              ? { state: 'sending' as const, leaseUntil: Date.now() + LEASE_MS }
              : {};
            await putQueued({ ...queued, ...lease, holder: s.deadHolder ? 'gone' : undefined });

            // The server: uploads stored as they come; submissions deduplicated by their Idempotency-Key.
            const uploads = new Set<string>();
            const stored = new Map<string, SubmissionBody>();
            let inFlight = 0;
            let mostInFlight = 0;
            let call = 0;
            vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
              const fate = online ? (s.fates[call++] ?? 'answered') : 'down';
              if (fate === 'down') return Promise.reject(new TypeError('Failed to fetch'));
              mostInFlight = Math.max(mostInFlight, ++inFlight);
              return new Promise<Response>((resolve, reject) =>
                setTimeout(() => {
                  inFlight--;
                  let answer: Response;
                  if (url.startsWith('/api/profile')) {
                    const id = `upload-${uploads.size + 1}`;
                    uploads.add(id);
                    answer = json(200, { file: `/files/${id}`, _id: id, name: 'pass.pdf' });
                  } else if (s.closed) {
                    const message = 'This form is no longer accepting responses';
                    answer = json(410, { error: { code: 'FORM_CLOSED', message } });
                  } else {
                    const key = new Headers(init.headers).get(IDEMPOTENCY_HEADER) ?? '';
                    if (!stored.has(key)) stored.set(key, JSON.parse(String(init.body)) as SubmissionBody);
                    answer = json(200, { _id: `submission-of-${key}` });
                  }
                  if (fate === 'lost') reject(new TypeError('Network connection lost'));
                  else resolve(answer);
                }, s.latency),
              );
            });

            const screens = s.tabs.map(() => screen());
            const events = [
              ...s.tabs.map((at, i) => ({
                at,
                run: () => void stops.push(resume(queued.key, screens[i]?.outcome ?? screen().outcome)),
              })),
              ...s.worker.map((at) => ({ at: s.offlineFor + at, run: () => void sendQueued(queued.key) })),
              {
                at: s.offlineFor,
                run: () => {
                  online = true;
                  window.dispatchEvent(new Event('online'));
                },
              },
            ];
            const STEP = 250;
            for (let now = 0; now <= 120_000; now += STEP) {
              for (const event of events.filter((e) => e.at >= now && e.at < now + STEP)) event.run();
              await vi.advanceTimersByTimeAsync(STEP);
              await realPause();
            }

            expect(mostInFlight).toBe(1);
            const kept = await readQueued(queued.key);
            if (s.closed) {
              expect(stored.size).toBe(0);
              for (const { seen } of screens) expect(seen.at(-1)).toBe('refused FORM_CLOSED');
              // The file did reach the server: the customer's answers come back with it, not to be uploaded again.
              expect(kept).toMatchObject({ state: 'refused', refusal: { status: 410, code: 'FORM_CLOSED' } });
              expect(uploads.has(kept?.body.fileObject?.f1?.deleteId ?? '')).toBe(true);
            } else {
              expect([...stored.keys()]).toEqual([queued.key]);
              expect(uploads.has(stored.get(queued.key)?.fileObject?.f1?.deleteId ?? '')).toBe(true);
              for (const { seen } of screens) expect(seen.at(-1)).toBe(`sent submission-of-${queued.key}`);
              expect(kept).toMatchObject({ state: 'sent' });
            }
          } finally {
            for (const stop of await Promise.all(stops)) stop();
            vi.unstubAllGlobals();
            vi.useRealTimers();
          }
        }),
        { numRuns: 15 },
      );
    }, 120_000);
  });
});
