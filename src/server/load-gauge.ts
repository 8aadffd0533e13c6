// How busy this process's event loop is: background work (webhook deliveries) yields to customers' requests when it
// is busy, and catches up when it is not. docs/decisions/023-webhooks.md.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

const SAMPLE_MS = 250;
/** The share of the last samples' time the loop spent working, weighted towards the newest. */
const WEIGHT = 0.5;

export type LoadGauge = { utilization(): number; close(): void };

/** Samples the event loop's utilization every 250 ms (an unref'd timer: it never keeps the process alive). */
export function createLoadGauge(): LoadGauge {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let value = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    value = WEIGHT * performance.eventLoopUtilization(now, last).utilization + (1 - WEIGHT) * value;
    last = now;
  }, SAMPLE_MS);
  timer.unref();
  return { utilization: () => value, close: () => clearInterval(timer) };
}
