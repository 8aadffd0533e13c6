// Part 1's figures: what each round measured, and the spreads over the rounds that the report reads.
import type { Capacity } from './capacity.ts';
import { medianUse, type CpuUse } from './cpu-use.ts';
import type { WebhookDrain } from './ingest-steps.ts';
import type { LoadResult } from './load.ts';
import type { RawInsertResult } from './raw-insert.ts';
import { spread, type Spread } from './stats.ts';

/**
 * `app`: the load on a form with owner notifications on and one webhook; `quiet`: the same load on a form with
 * notifications off and no webhook; `onOffRatio`: app / quiet (issue 12).
 */
export type IngestRound = {
  hello: LoadResult;
  /** The no-database ceiling: the same route, schemas and answer validation, nothing stored. */
  ceiling: LoadResult;
  app: LoadResult;
  ratio: number;
  quiet: LoadResult;
  onOffRatio: number;
  /** quiet ÷ ceiling, and app (on) ÷ ceiling. */
  ceilingRatio: number;
  onCeilingRatio: number;
  /** PostgreSQL only: the raw insert loop, and quiet ÷ raw. */
  raw: RawInsertResult | null;
  rawRatio: number | null;
  /** The embedded engine only: the quiet load on a second server with EMBEDDED_SYNC=off, and quiet ÷ that. */
  unsynced: LoadResult | null;
  syncRatio: number | null;
  webhook: WebhookDrain;
  /** CPU per operation of the ceiling, the app (neither) and the raw loop (PostgreSQL), by process (issue 14). */
  cpu: { ceiling: CpuUse | null; quiet: CpuUse | null; raw: CpuUse | null };
};

export type IngestResult = {
  engine: string;
  /** The server's resident memory settled after start, and its peak (VmHWM) from then through every load, bytes. */
  memory: { idle: number; peak: number };
  rounds: IngestRound[];
  ratio: Spread;
  ceilingReqPerSec: Spread;
  ceilingRatio: Spread;
  onCeilingRatio: Spread;
  raw: { rowsPerSec: Spread; p99: Spread; errors: number } | null;
  rawRatio: Spread | null;
  /** PostgreSQL: the no-database ceiling ÷ the raw loop, round by round: the most the app's ratio could be. */
  ceilingRawRatio: Spread | null;
  /** Medians over the rounds of the CPU each operation cost, by process; null off Linux. */
  cpu: { ceiling: CpuUse | null; quiet: CpuUse | null; raw: CpuUse | null };
  /** PostgreSQL: the app's and the raw loop's best rates within SWEEP_P99_MS over several client counts. */
  capacity: Capacity | null;
  /** What the durable embedded commit costs (ADR 007): the synced app ÷ the same app with EMBEDDED_SYNC=off. */
  unsynced: { reqPerSec: Spread; p99: Spread; ratio: Spread } | null;
  quietP50: Spread;
  quietP99: Spread;
  /** Ingest into a form with notifications and a webhook over ingest into one with neither (issue 12). */
  onOffRatio: Spread;
  appReqPerSec: Spread;
  quietReqPerSec: Spread;
  helloReqPerSec: Spread;
  p50: Spread;
  p99: Spread;
  non2xx: number;
  rowsStored: number;
  /** The last round's drain: every stored submission of the hooked form against what the receiver got. */
  webhook: WebhookDrain;
  settings: string;
};

function rawSummary(rounds: readonly IngestRound[]) {
  const raws = rounds.flatMap((r) => (r.raw ? [r.raw] : []));
  return {
    rowsPerSec: spread(raws.map((r) => r.rowsPerSec)),
    p99: spread(raws.map((r) => r.p99)),
    errors: raws.reduce((n, r) => n + r.errors, 0),
  };
}

/** The spreads over the rounds, and what the run knew beside them. */
export function summarise(
  rounds: IngestRound[],
  run: {
    engine: string;
    /** Whether the raw insert loop ran (PostgreSQL), and the EMBEDDED_SYNC=off server. */
    raw: boolean;
    unsynced: boolean;
    capacity: Capacity | null;
    memory: IngestResult['memory'];
    rowsStored: number;
    settings: string;
  },
): IngestResult {
  const last = rounds[rounds.length - 1];
  if (!last) throw new Error('no round ran');
  return {
    engine: run.engine,
    rounds,
    ratio: spread(rounds.map((r) => r.ratio)),
    ceilingReqPerSec: spread(rounds.map((r) => r.ceiling.reqPerSec)),
    ceilingRatio: spread(rounds.map((r) => r.ceilingRatio)),
    onCeilingRatio: spread(rounds.map((r) => r.onCeilingRatio)),
    raw: run.raw ? rawSummary(rounds) : null,
    capacity: run.capacity,
    rawRatio: run.raw ? spread(rounds.map((r) => r.rawRatio ?? NaN)) : null,
    ceilingRawRatio: run.raw
      ? spread(rounds.map((r) => (r.raw ? r.ceiling.reqPerSec / r.raw.rowsPerSec : NaN)))
      : null,
    cpu: {
      ceiling: medianUse(rounds.map((r) => r.cpu.ceiling)),
      quiet: medianUse(rounds.map((r) => r.cpu.quiet)),
      raw: run.raw ? medianUse(rounds.map((r) => r.cpu.raw)) : null,
    },
    unsynced: run.unsynced
      ? {
          reqPerSec: spread(rounds.map((r) => r.unsynced?.reqPerSec ?? NaN)),
          p99: spread(rounds.map((r) => r.unsynced?.p99 ?? NaN)),
          ratio: spread(rounds.map((r) => r.syncRatio ?? NaN)),
        }
      : null,
    quietP50: spread(rounds.map((r) => r.quiet.p50)),
    quietP99: spread(rounds.map((r) => r.quiet.p99)),
    onOffRatio: spread(rounds.map((r) => r.onOffRatio)),
    appReqPerSec: spread(rounds.map((r) => r.app.reqPerSec)),
    quietReqPerSec: spread(rounds.map((r) => r.quiet.reqPerSec)),
    helloReqPerSec: spread(rounds.map((r) => r.hello.reqPerSec)),
    p50: spread(rounds.map((r) => r.app.p50)),
    p99: spread(rounds.map((r) => r.app.p99)),
    non2xx: rounds.reduce(
      (n, r) =>
        n +
        r.app.non2xx +
        r.app.errors +
        r.quiet.non2xx +
        r.quiet.errors +
        r.ceiling.non2xx +
        r.ceiling.errors,
      (run.capacity?.points ?? []).reduce((n, pt) => n + pt.app.non2xx + pt.app.errors, 0),
    ),
    rowsStored: run.rowsStored,
    webhook: last.webhook,
    settings: run.settings,
    memory: run.memory,
  };
}
