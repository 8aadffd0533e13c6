import { describe, expect, it } from 'vitest';
import { createLoadGauge } from './load-gauge.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Keeps the event loop working for `ms`, in slices, as a stream of requests does. */
async function work(ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const slice = Date.now() + 50;
    while (Date.now() < slice) {
      // busy
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('the load gauge', () => {
  it('reads a working event loop as busy and an idle one as not', async () => {
    const gauge = createLoadGauge();
    try {
      await work(1_500);
      expect(gauge.utilization()).toBeGreaterThan(0.7);
      await sleep(1_500);
      expect(gauge.utilization()).toBeLessThan(0.3);
    } finally {
      gauge.close();
    }
  });
});
