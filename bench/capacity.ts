// Part 1 on PostgreSQL: the app's capacity against the raw insert loop's over several client counts.
import type { LoadResult } from './load.ts';
import type { RawInsertResult } from './raw-insert.ts';

/**
 * Capacity (issue 14): the app and the raw insert loop each at several client counts, on PostgreSQL. A closed loop
 * of 10 clients measures latency, not capacity: each of the app's requests is an insert's commit plus HTTP,
 * validation and the wait for the batch being written, so at the same 10 clients it takes fewer per second however
 * well it batches, while more clients fill its batches and only crowd the raw loop's ten backends on two cores.
 * Each side's best rate whose p99 stays within SWEEP_P99_MS is compared (docs/decisions/013-group-commit.md).
 */
export const SWEEP_CONNECTIONS = [10, 20, 40] as const;
export const SWEEP_PASSES = 2;
export const SWEEP_P99_MS = 20;
export type SweepPoint = { connections: number; app: LoadResult; raw: RawInsertResult };
export type Capacity = {
  points: SweepPoint[];
  /** Per client count, the passes' mean rate and worst p99, for each side. */
  app: { connections: number; perSec: number; p99: number }[];
  raw: { connections: number; perSec: number; p99: number }[];
  /** The best mean rate within SWEEP_P99_MS, and at how many clients; null when no point kept it. */
  bestApp: { connections: number; perSec: number; p99: number } | null;
  bestRaw: { connections: number; perSec: number; p99: number } | null;
  ratio: number;
  /** The best mean rates over all client counts, whatever their p99. */
  peakRatio: number;
};

export async function capacitySweep(run: {
  app: (connections: number) => Promise<LoadResult>;
  raw: (connections: number) => Promise<RawInsertResult>;
  log: (line: string) => void;
}): Promise<Capacity> {
  const points: SweepPoint[] = [];
  for (let pass = 0; pass < SWEEP_PASSES; pass++) {
    // Each pass in the other order, so that neither side always goes first.
    const order = pass % 2 === 0 ? [...SWEEP_CONNECTIONS] : [...SWEEP_CONNECTIONS].reverse();
    for (const connections of order) {
      const appFirst = pass % 2 === 0;
      const first = appFirst ? await run.app(connections) : await run.raw(connections);
      const second = appFirst ? await run.raw(connections) : await run.app(connections);
      const point = {
        connections,
        app: (appFirst ? first : second) as LoadResult,
        raw: (appFirst ? second : first) as RawInsertResult,
      };
      points.push(point);
      run.log(
        `  capacity pass ${pass + 1}, ${connections} clients: app ${point.app.reqPerSec.toFixed(0)} req/s ` +
          `(p99 ${point.app.p99} ms), raw insert loop ${point.raw.rowsPerSec.toFixed(0)} rows/s ` +
          `(p99 ${point.raw.p99.toFixed(1)} ms)`,
      );
    }
  }
  const side = (rate: (p: SweepPoint) => number, p99: (p: SweepPoint) => number) =>
    SWEEP_CONNECTIONS.map((connections) => {
      const at = points.filter((p) => p.connections === connections);
      return {
        connections,
        perSec: at.reduce((n, p) => n + rate(p), 0) / at.length,
        p99: Math.max(...at.map(p99)),
      };
    });
  const best = (rows: Capacity['app']) =>
    rows
      .filter((r) => r.p99 <= SWEEP_P99_MS)
      .reduce<Capacity['bestApp']>((b, r) => (b && b.perSec >= r.perSec ? b : r), null);
  const app = side(
    (p) => p.app.reqPerSec,
    (p) => p.app.p99,
  );
  const raw = side(
    (p) => p.raw.rowsPerSec,
    (p) => p.raw.p99,
  );
  const bestApp = best(app);
  const bestRaw = best(raw);
  return {
    points,
    app,
    raw,
    bestApp,
    bestRaw,
    ratio: bestApp && bestRaw ? bestApp.perSec / bestRaw.perSec : NaN,
    peakRatio: Math.max(...app.map((r) => r.perSec)) / Math.max(...raw.map((r) => r.perSec)),
  };
}
