// Small statistics helpers: medians and the spread over repeated runs.

export type Spread = { min: number; median: number; max: number };

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function spread(values: readonly number[]): Spread {
  return { min: Math.min(...values), median: median(values), max: Math.max(...values) };
}

/** Median wall time, in ms, of `times` calls of `work` after `warmup` untimed ones. */
export async function medianMs(work: () => Promise<unknown>, times = 15, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i++) await work();
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

export const MiB = 1024 * 1024;
export const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** `npm run bench -- --deep`: the long forms of the parts (more ingest rounds, the CSV export at 1,000,000 rows). */
export const DEEP = process.argv.includes('--deep');
