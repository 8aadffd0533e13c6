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

  it('reads customers waiting on tracked work as busy while the event loop idles, and not once they are answered', async () => {
    const gauge = createLoadGauge();
    try {
      const answers: (() => void)[] = [];
      const waits = [1, 2, 3].map(() => gauge.track(new Promise<void>((resolve) => answers.push(resolve))));
      await sleep(1_000);
      expect(gauge.utilization()).toBeLessThan(0.3);
      expect(gauge.waiting()).toBeGreaterThan(2);
      expect(gauge.busy()).toBe(true);
      for (const answer of answers) answer();
      await Promise.all(waits);
      await sleep(1_500);
      expect(gauge.waiting()).toBeLessThan(0.2);
      expect(gauge.busy()).toBe(false);
    } finally {
      gauge.close();
    }
  });

  it('hands back what the tracked work settles with, a failure included', async () => {
    const gauge = createLoadGauge();
    try {
      await expect(gauge.track(Promise.resolve('stored'))).resolves.toBe('stored');
      await expect(gauge.track(Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    } finally {
      gauge.close();
    }
  });
});
