import { describe, expect, it } from 'vitest';
import { createBatcher, type Outcome } from './group-commit.ts';

/** A writer that records its batches and answers each item doubled, or fails the odd ones. */
function recorder(options: { failOdd?: boolean; throwOn?: number } = {}) {
  const batches: number[][] = [];
  let active = 0;
  let maxActive = 0;
  const write = async (items: number[]): Promise<Outcome<number>[]> => {
    batches.push(items);
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((resolve) => setTimeout(resolve, 5));
    active--;
    if (items.includes(options.throwOn ?? NaN)) throw new Error('the batch failed');
    return items.map((n) =>
      options.failOdd && n % 2 === 1
        ? { ok: false, error: new Error(`odd ${n}`) }
        : { ok: true, value: n * 2 },
    );
  };
  return { write, batches, maxActive: () => maxActive };
}

describe('group commit', () => {
  it('writes what arrives together in one batch and answers each item its own outcome', async () => {
    const r = recorder({ failOdd: true });
    const batcher = createBatcher(r.write, { maxBatch: 64, writers: 1 });
    const answers = await Promise.allSettled([1, 2, 3, 4].map((n) => batcher.add(n)));
    expect(r.batches).toEqual([[1, 2, 3, 4]]);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : String(a.reason)))).toEqual([
      'Error: odd 1',
      4,
      'Error: odd 3',
      8,
    ]);
  });

  it('queues what arrives during a write for the next batch, never more than maxBatch at once', async () => {
    const r = recorder();
    const batcher = createBatcher(r.write, { maxBatch: 3, writers: 1 });
    const first = batcher.add(0);
    await new Promise((resolve) => setImmediate(resolve));
    const rest = [1, 2, 3, 4, 5].map((n) => batcher.add(n));
    expect(await Promise.all([first, ...rest])).toEqual([0, 2, 4, 6, 8, 10]);
    expect(r.batches).toEqual([[0], [1, 2, 3], [4, 5]]);
    expect(r.maxActive()).toBe(1);
  });

  it('fails every item of a batch whose write throws, and goes on with the next', async () => {
    const r = recorder({ throwOn: 2 });
    const batcher = createBatcher(r.write, { maxBatch: 2, writers: 1 });
    const answers = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
  });

  it('runs up to `writers` batches at once', async () => {
    const r = recorder();
    const batcher = createBatcher(r.write, { maxBatch: 64, writers: 2 });
    const first = batcher.add(1);
    await new Promise((resolve) => setImmediate(resolve));
    const second = batcher.add(2);
    await new Promise((resolve) => setImmediate(resolve));
    const third = batcher.add(3);
    expect(await Promise.all([first, second, third])).toEqual([2, 4, 6]);
    expect(r.maxActive()).toBe(2);
    expect(r.batches).toEqual([[1], [2], [3]]);
  });
});
