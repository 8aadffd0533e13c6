import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { IDEMPOTENCY_HEADER } from '#common/answer-limits.ts';
import { asFileList } from '#common/kinds/file-rules.ts';
import type { FileAnswer, SubmissionBody } from '#common/submissions.ts';
import { elapse, fakePageClock, until, untilIdle } from '../../test-clock.ts';
import { resume, type Outcome } from './page-queue.ts';
import { entry, json, network, queueTestHooks } from './queue-fixtures.ts';
import {
  changeQueued,
  claimQueued,
  putLocalFile,
  putQueued,
  randomId,
  readQueued,
  renewClaim,
  type Queued,
} from './queue-store.ts';
import { announce, LEASE_MS, sendQueued } from './send-queued.ts';

/** The upload id a question's files begin with, sent as one file or a list. */
const firstFileOf = (sent: FileAnswer | FileAnswer[] | undefined) =>
  sent ? (asFileList(sent)[0]?.deleteId ?? '') : '';

queueTestHooks();
// The page's resends and leases run on its clock, which the tests move on (test-clock.ts); IndexedDB and
// BroadcastChannel run as they are.
beforeEach(fakePageClock);
afterEach(() => void vi.useRealTimers());

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

  /** Online, one submission waiting, and a server that stores it as `id`. */
  async function waitingOnline(id: string) {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const queued = entry();
    await putQueued(queued);
    return { queued, calls: network(() => json(200, { _id: id })) };
  }

  it('sends it itself when another sender (the worker) held it just after the connection came back and found no network', async () => {
    const { queued, calls } = await waitingOnline('submission-3');
    // The worker's Background Sync took it first; the page's own try, on the `online` event, finds it taken.
    await claimQueued(queued.key, 60_000, 'worker');
    const { seen, outcome } = screen();
    onTestFinished(await resume(queued.key, outcome));
    await vi.waitFor(() => expect(seen).toContain('sending'));
    expect(calls).toHaveLength(0);
    // The worker's network was not back yet: its try ends with the submission waiting again, and it tells the pages.
    await changeQueued(queued.key, (e) => ({ ...e, state: 'queued', leaseUntil: 0 }));
    announce(queued.key);
    await until(() => expect(seen.at(-1)).toBe('sent submission-3'), 5000);
    expect(calls).toHaveLength(1);
  });

  it('sends it within a few seconds once another sender that held it for a while gives it back', async () => {
    const { queued, calls } = await waitingOnline('submission-8');
    // Another sender (the worker, on a slow connection) holds it and keeps renewing its short lease, so the page
    // looks at it several times as each lease would lapse and finds it still held.
    await claimQueued(queued.key, 300, 'worker');
    const renewing = setInterval(() => void renewClaim(queued.key, 300, 'worker'), 100);
    onTestFinished(() => clearInterval(renewing));
    const { seen, outcome } = screen();
    onTestFinished(await resume(queued.key, outcome));
    await elapse(3000);
    expect(seen.at(-1)).toBe('sending');
    expect(calls).toHaveLength(0);
    // Its try fails in the end and it gives the submission back: none of the page's looks was a failed try of
    // its own, so the page sends it after its first, shortest wait, not a back-off grown by the looks.
    clearInterval(renewing);
    await changeQueued(queued.key, (e) => ({ ...e, state: 'queued', leaseUntil: 0, holder: undefined }));
    announce(queued.key);
    const givenBack = Date.now();
    await until(() => expect(seen.at(-1)).toBe('sent submission-8'), 8000);
    expect(Date.now() - givenBack).toBeLessThan(2500);
    expect(calls).toHaveLength(1);
  });

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
    announce(queued.key);
    await vi.waitFor(() => expect(first.seen.at(-1)).toBe('sent submission-10'));
  });

  it('takes over one whose sender went away mid-send once its lease lapses, and sends it once', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const queued: Queued = { ...entry(), state: 'sending', leaseUntil: Date.now() + 300 };
    await putQueued(queued);
    const calls = network(() => json(200, { _id: 'submission-4' }));
    const { seen, outcome } = screen();
    onTestFinished(await resume(queued.key, outcome));
    await until(() => expect(seen.at(-1)).toBe('sent submission-4'), 5000);
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
    await elapse(1500);
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
    // BroadcastChannel run as they are, each step until they are idle.
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
          const queuedId = randomId();
          await putLocalFile({ id: `blob-p${queuedId}`, blob: new Blob(['%PDF-1.4']), fileName: 'pass.pdf' });
          const file = { name: 'Pass', deleteId: `local:blob-p${queuedId}`, originalName: 'pass.pdf' };
          const queued = entry({ fileObject: { f1: file } });
          const lease = s.deadHolder ? { state: 'sending' as const, leaseUntil: Date.now() + LEASE_MS } : {};
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
            await untilIdle();
          }

          expect(mostInFlight).toBe(1);
          const kept = await readQueued(queued.key);
          if (s.closed) {
            expect(stored.size).toBe(0);
            for (const { seen } of screens) expect(seen.at(-1)).toBe('refused FORM_CLOSED');
            // The file did reach the server: the customer's answers come back with it, not to be uploaded again.
            expect(kept).toMatchObject({ state: 'refused', refusal: { status: 410, code: 'FORM_CLOSED' } });
            expect(uploads.has(firstFileOf(kept?.body.fileObject?.f1))).toBe(true);
          } else {
            expect([...stored.keys()]).toEqual([queued.key]);
            expect(uploads.has(firstFileOf(stored.get(queued.key)?.fileObject?.f1))).toBe(true);
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
