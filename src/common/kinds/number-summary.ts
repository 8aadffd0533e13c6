// What Results show of a number question, from how many responses gave each number (the counters Results keep for
// every kind, so reading them costs the same at 100 responses or 1,000,000).

export type NumberSummary = {
  count: number;
  min: number;
  max: number;
  mean: number;
  median: number;
  /** Equal-width bins from min to max, each with how many numbers fell in it (the last includes max). */
  histogram: { from: number; to: number; count: number }[];
};

export const HISTOGRAM_BINS = 10;

/**
 * The histogram's empty bins: whole numbers get bins of whole numbers (one per number when there are at most
 * HISTOGRAM_BINS of them: "2", "3", not "2 – 2.1"); other numbers HISTOGRAM_BINS equal bins from min to max.
 */
function binsOf(min: number, max: number, whole: boolean): NumberSummary['histogram'] {
  if (whole) {
    const width = Math.ceil((max - min + 1) / HISTOGRAM_BINS);
    const bins = Math.ceil((max - min + 1) / width);
    return Array.from({ length: bins }, (_, i) => ({
      from: min + i * width,
      to: Math.min(max, min + (i + 1) * width - 1),
      count: 0,
    }));
  }
  // Numbers too close together for ten bins a double can tell apart (a span of a few units in the last place): one
  // bin, rather than bins whose edges round onto each other or past the largest number.
  const tooClose =
    (max - min) / HISTOGRAM_BINS <= 16 * Number.EPSILON * Math.max(1, Math.abs(min), Math.abs(max));
  const bins = min === max || tooClose ? 1 : HISTOGRAM_BINS;
  const width = (max - min) / bins;
  return Array.from({ length: bins }, (_, i) => ({
    from: min + i * width,
    to: i === bins - 1 ? max : min + (i + 1) * width,
    count: 0,
  }));
}

/** `counts`: each number given and how many responses gave it. Null when no response gave one. */
export function summariseNumbers(counts: ReadonlyMap<number, number>): NumberSummary | null {
  const values = [...counts.entries()].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const count = values.reduce((sum, [, n]) => sum + n, 0);
  if (count === 0) return null;
  const min = values[0]![0];
  const max = values[values.length - 1]![0];
  const mean = values.reduce((sum, [v, n]) => sum + v * n, 0) / count;
  /** The k-th number in order (0-based), walking the counts. */
  const nth = (k: number) => {
    let seen = 0;
    for (const [v, n] of values) {
      seen += n;
      if (k < seen) return v;
    }
    return max;
  };
  const median = count % 2 === 1 ? nth((count - 1) / 2) : (nth(count / 2 - 1) + nth(count / 2)) / 2;
  const histogram = binsOf(
    min,
    max,
    values.every(([v]) => Number.isInteger(v)),
  );
  for (const [v, n] of values) {
    // By the bins' own edges rather than (v − min) ÷ width, which rounding can put one bin off.
    let bin = histogram.length - 1;
    while (bin > 0 && v < histogram[bin]!.from) bin--;
    histogram[bin]!.count += n;
  }
  return { count, min, max, mean, median, histogram };
}
