import { vi } from 'vitest';
// What the page loads lazily on its way (a refusal's words, the session), loaded here first: a module's first load
// goes through the test runner's transform, which takes real time that the fake clock does not wait for. A queue test
// moving the clock two minutes on once saw a 410's words arrive 28 to over 118 s of the page's time after the answer.
import './api/failure-words.ts';
import './api/session.ts';
import '#common/submissions.ts';

/**
 * For web tests whose page waits on its own clock (retry delays, the device queue's resends and leases): the page's
 * setTimeout, setInterval and Date are fake, and the test moves them on, so no test waits out a delay the page would
 * wait. Everything else runs as it is: sockets (a real server on 127.0.0.1), fake-indexeddb (setImmediate),
 * BroadcastChannel, module loading. The fake clock also moves with the real one (`shouldAdvanceTime`), so nothing the
 * page does waits forever on a clock no one moves.
 */

/** Taken when this file loads, before any test fakes the timers. */
const realSetTimeout = globalThis.setTimeout;
/** A real pause: the event loop turns, for sockets, IndexedDB and BroadcastChannel to do their part. */
const realPause = () => new Promise((resolve) => realSetTimeout(resolve, 1));

/**
 * Turns the event loop until nothing waits on its next turn: what fake-indexeddb queued (it runs on setImmediate) has
 * run, and so has what it led to, including a BroadcastChannel message (delivered on the turn after it is posted).
 */
export async function untilIdle(): Promise<void> {
  for (let turns = 0; turns < 1000; turns++) {
    await new Promise((resolve) => setImmediate(resolve));
    if (turns > 0 && !process.getActiveResourcesInfo().includes('Immediate')) return;
  }
}

/** How far the page's clock moves between two real pauses, unless a test says otherwise. */
const STEP_MS = 50;

/** Fakes the page's clock for the rest of the test; call in a test or a beforeEach. */
export function fakePageClock(): void {
  vi.useFakeTimers({
    shouldAdvanceTime: true,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

/**
 * `busy`: whether the page waits for something other than its clock (a request on its way). While it does, the clock
 * only moves with the real one: a deadline must not pass because the test hurried the clock past it. `stepMs`: how far
 * the clock moves at a time (a larger step checks a screen less often; a smaller one lets IndexedDB keep up with
 * timers that fire often).
 */
type Hurry = { busy?: () => boolean; stepMs?: number };

/** Moves the page's clock on by one step (at most `ms`), after a real pause. */
async function step({ busy = () => false, stepMs = STEP_MS }: Hurry, ms = stepMs) {
  await realPause();
  if (!busy()) await vi.advanceTimersByTimeAsync(Math.min(stepMs, ms));
}

/**
 * Moves the page's clock on until `check` passes, and answers what it answered; fails with check's error once
 * `withinMs` of the page's time have passed (as a `findBy…` query's timeout would, on the page's clock).
 */
export async function until<T>(check: () => T | Promise<T>, withinMs: number, hurry: Hurry = {}): Promise<T> {
  const end = Date.now() + withinMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= end) throw error;
    }
    await step(hurry);
  }
}

/** Moves the page's clock on by `ms`, a step at a time, letting the page do what it does meanwhile. */
export async function elapse(ms: number, hurry: Hurry = {}): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) await step(hurry, end - Date.now());
}

/** Moves the page's clock on until `promise` settles (at most `withinMs` of the page's time), and answers it. */
export async function settled<T>(promise: Promise<T>, withinMs = 60_000, hurry: Hurry = {}): Promise<T> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await until(
    () => {
      if (!done) throw new Error(`still waiting after ${withinMs} ms of the page's time`);
    },
    withinMs,
    hurry,
  );
  return promise;
}
