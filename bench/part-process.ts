// The rows of the server process itself: memory under uploads (part 4), one process against WORKERS=2 (part 7) and
// the restart after kill -9 (part 9).
import type { BenchRun } from './bench-run.ts';
import { fmt } from './report.ts';
import { benchRestart } from './restart.ts';
import { inScratchDatabase } from './scratch-database.ts';
import { median, mib, MiB, type Spread } from './stats.ts';
import { benchUpload, GROWTH_RESOLUTION, LARGE_UPLOAD, SMALL_UPLOAD } from './upload-memory.ts';
import { benchWorkers } from './workers.ts';

/** Part 4: the server's memory under a small and a large upload. */
export async function measureUpload({ report, raw, mail, dirOf, log }: BenchRun): Promise<void> {
  const r = await benchUpload({ dataDir: await dirOf('upload'), mail, log });
  raw.upload = r;
  const p = 'upload';
  const all = [...r.small, ...r.large];
  report.add(
    p,
    'all answered',
    [...new Set(all.map((m) => m.status))].join(', '),
    '200',
    all.every((m) => m.status === 200),
  );
  for (const [name, ms] of [
    [`${SMALL_UPLOAD / MiB} MiB`, r.small],
    [`${LARGE_UPLOAD / MiB} MiB`, r.large],
  ] as const) {
    const growths = ms.map((m) => m.growth);
    report.add(
      p,
      `${name}: peak RSS growth (min/median/max), seconds`,
      `${mib(Math.min(...growths))} / ${mib(median(growths))} / ${mib(Math.max(...growths))}, ` +
        ms.map((m) => fmt(m.seconds, 1)).join(' '),
    );
  }
  report.check(
    p,
    `growth ${LARGE_UPLOAD / MiB} MiB / ${SMALL_UPLOAD / MiB} MiB (medians, each ≥ ${mib(GROWTH_RESOLUTION)})`,
    r.ratio,
    `${fmt(r.ratio, 2)} (unfloored ${fmt(r.rawRatio, 2)})`,
    { max: 1.2 },
  );
}

/** Part 7 (PostgreSQL): one process against WORKERS=2. */
export async function measureWorkers(
  { report, raw, mail, dirOf, log }: BenchRun,
  pgUrl: string,
): Promise<void> {
  const dataDir = await dirOf('workers');
  const r = await inScratchDatabase(pgUrl, (url) =>
    benchWorkers({ databaseUrl: url ?? pgUrl, dataDir, mail, log }),
  );
  raw.workers = r;
  const p = 'workers postgres';
  const minMedMax = (s: Spread) => `${fmt(s.min, 0)} / ${fmt(s.median, 0)} / ${fmt(s.max, 0)}`;
  report.add(p, '1 process req/s (min/median/max)', `${minMedMax(r.one)}, p99 ${fmt(r.p99One.median, 0)} ms`);
  report.add(p, 'WORKERS=2 req/s (min/median/max)', `${minMedMax(r.two)}, p99 ${fmt(r.p99Two.median, 0)} ms`);
  report.add(
    p,
    'WORKERS=2 / 1 process (median; 2 cores shared with the load generator)',
    `${fmt(r.ratio.median, 3)} (min ${fmt(r.ratio.min, 3)}, max ${fmt(r.ratio.max, 3)})`,
  );
  report.add(p, 'non-2xx + errors', String(r.non2xx), '0', r.non2xx === 0);
}

/** Part 9: kill -9 and serving again. */
export async function measureRestart({ report, raw, mail, dirOf }: BenchRun): Promise<void> {
  const r = await benchRestart({ dataDir: await dirOf('restart'), mail });
  raw.restart = r;
  const p = 'restart pglite';
  report.check(
    p,
    `kill -9 to serving again, ms (median of ${r.restartMs.length}, range)`,
    r.restart.median,
    `${fmt(r.restart.median, 0)} (${fmt(r.restart.min, 0)}–${fmt(r.restart.max, 0)})`,
    { max: 2000 },
  );
  report.add(p, 'first start on the same directory, ms', fmt(r.firstStartMs, 0));
  report.check(
    p,
    'responses after the restarts / stored before',
    r.responsesAfter,
    `${r.responsesAfter} / ${r.stored}`,
    {
      min: r.stored,
      max: r.stored,
    },
  );
}
