// How busy this process is with customers: background work (webhook deliveries) yields while customers wait, and
// catches up when they do not. Two signs, either enough: the event loop is mostly working (the embedded database
// works on this thread), or customers are waiting on the submission writer (a server database works in other
// processes, so the loop can be idle while the machine is not). docs/decisions/023-webhooks.md.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

const SAMPLE_MS = 250;
/** Each sample's weight in the running averages; the rest is the average before it. */
const WEIGHT = 0.5;
/** Busier than this share of the loop's time is busy. */
const BUSY_UTILIZATION = 0.7;
/** At least this many customers waiting on the writer, on average, is busy. */
const BUSY_WAITING = 1;

export type LoadGauge = {
  /** The share of the last samples' time the loop spent working, weighted towards the newest. */
  utilization(): number;
  /** How many customers waited on tracked work, on average over the last samples, weighted towards the newest. */
  waiting(): number;
  busy(): boolean;
  /** Counts a customer as waiting until `work` settles; returns it unchanged. */
  track<T>(work: Promise<T>): Promise<T>;
  close(): void;
};

/** Samples every 250 ms (an unref'd timer: it never keeps the process alive). */
export function createLoadGauge(): LoadGauge {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let utilization = 0;
  // Customers waiting now, and the integral of that count over time since the last sample (customer-milliseconds).
  let now = 0;
  let area = 0;
  let changedAt = performance.now();
  let sampledAt = changedAt;
  let waiting = 0;
  function change(by: number): void {
    const t = performance.now();
    area += now * (t - changedAt);
    changedAt = t;
    now += by;
  }
  const timer = setInterval(() => {
    const current = performance.eventLoopUtilization();
    utilization =
      WEIGHT * performance.eventLoopUtilization(current, last).utilization + (1 - WEIGHT) * utilization;
    last = current;
    change(0);
    const span = changedAt - sampledAt;
    waiting = WEIGHT * (span > 0 ? area / span : now) + (1 - WEIGHT) * waiting;
    area = 0;
    sampledAt = changedAt;
  }, SAMPLE_MS);
  timer.unref();
  return {
    utilization: () => utilization,
    waiting: () => waiting,
    busy: () => utilization >= BUSY_UTILIZATION || waiting >= BUSY_WAITING,
    track(work) {
      change(1);
      const done = () => change(-1);
      work.then(done, done);
      return work;
    },
    close: () => clearInterval(timer),
  };
}
