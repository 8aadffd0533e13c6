// The rows of what an owner's data costs as it grows: owner views and CSV (parts 3 and 5), webhook deliveries
// (part 6), backup and restore (part 7).
import { throwawayDatabase } from '../src/server/testing/throwaway-database.ts';
import { benchBackup } from './backup.ts';
import type { BenchEngine, BenchRun } from './bench-run.ts';
import { benchScale } from './owner-views.ts';
import { fmt } from './report.ts';
import { inScratchDatabase } from './scratch-database.ts';
import { mib } from './stats.ts';
import { BACKLOG, benchWebhooks } from './webhooks.ts';

/** Parts 3 and 5: owner views at 1k and 100k responses, and the CSV export. */
export async function measureOwnerViews(
  { report, raw, mail, dirOf, log }: BenchRun,
  { engine, databaseUrl }: BenchEngine,
): Promise<void> {
  const dataDir = await dirOf(`scale-${engine}`);
  const r = await inScratchDatabase(databaseUrl, (url) =>
    benchScale({ engine, databaseUrl: url, dataDir, mail, log }),
  );
  raw[`scale-${engine}`] = r;
  const p = `owner views ${engine}`;
  for (const key of ['summary', 'firstPage', 'lastPage', 'oneSubmission', 'results'] as const) {
    const small = r.views.small[key];
    const large = r.views.large[key];
    report.check(
      p,
      `${key} ms 1k → 100k (ratio)`,
      large / small,
      `${fmt(small)} → ${fmt(large)} (${fmt(large / small, 2)})`,
      { max: 1.5 },
    );
  }
  const c = `csv ${engine}`;
  report.add(
    c,
    'rows/s at 10k / 100k',
    `${fmt(r.csv.small.rowsPerSec, 0)} / ${fmt(r.csv.large.rowsPerSec, 0)}`,
  );
  report.add(c, 'RSS before → peak at 10k', `${mib(r.csv.small.rssBefore)} → ${mib(r.csv.small.peak)}`);
  report.add(c, 'RSS before → peak at 100k', `${mib(r.csv.large.rssBefore)} → ${mib(r.csv.large.peak)}`);
  const ratio = r.csv.large.peak / r.csv.small.peak;
  report.check(c, 'peak RSS 100k / 10k', ratio, fmt(ratio, 2), { max: 1.2 });
  const huge = r.csv.huge;
  if (huge) {
    report.add(
      c,
      'rows/s, RSS before → peak at 1M',
      `${fmt(huge.rowsPerSec, 0)}, ${mib(huge.rssBefore)} → ${mib(huge.peak)}`,
    );
    report.check(c, 'peak RSS 1M / 10k', huge.peak / r.csv.small.peak, fmt(huge.peak / r.csv.small.peak, 2), {
      max: 1.2,
    });
  }
}

/** Part 6: a backlog of webhook deliveries. */
export async function measureWebhooks(
  { report, raw, mail, dirOf, log }: BenchRun,
  { engine, databaseUrl }: BenchEngine,
): Promise<void> {
  const dataDir = await dirOf(`webhooks-${engine}`);
  const r = await inScratchDatabase(databaseUrl, (url) =>
    benchWebhooks({ engine, databaseUrl: url, dataDir, mail, log }),
  );
  raw[`webhooks-${engine}`] = r;
  const p = `webhooks ${engine}`;
  report.add(
    p,
    `backlog received (${BACKLOG.toLocaleString('en-US')} due at start)`,
    `${r.received.toLocaleString('en-US')} / ${r.expected.toLocaleString('en-US')} (${r.distinct.toLocaleString('en-US')} distinct)`,
    'one each',
    r.received === r.expected && r.distinct === r.received,
  );
  report.add(
    p,
    'deliveries/s, first → last received',
    `${fmt(r.deliveriesPerSec, 0)} (${fmt(r.drainSeconds, 2)} s)`,
  );
  report.add(
    p,
    'deliveries by status / attempts logged',
    `${Object.entries(r.statuses)
      .map(([status, n]) => `${status} ${n}`)
      .join(', ')} / ${r.attempts}`,
  );
}

/** Part 7: backup and restore. */
export async function measureBackup(
  { report, raw, mail, dirOf, log }: BenchRun,
  { engine, databaseUrl }: BenchEngine,
): Promise<void> {
  // On PostgreSQL the restore goes into a new, empty database on the same server.
  const restore = databaseUrl ? await throwawayDatabase(databaseUrl, 'easyform_bench') : null;
  try {
    const dataDir = await dirOf(`backup-${engine}`);
    const r = await inScratchDatabase(databaseUrl, (url) =>
      benchBackup({ engine, databaseUrl: url, restoreUrl: restore?.url, dataDir, mail, log }),
    );
    raw[`backup-${engine}`] = r;
    const p = `backup ${engine}`;
    const what = `${r.submissions.toLocaleString('en-US')} submissions + ${r.files} files`;
    report.add(
      p,
      `backup of ${what}, s (archive MiB)`,
      `${fmt(r.backupSeconds, 1)} (${mib(r.archiveBytes)})`,
    );
    report.add(p, 'of which the database is held (rows read), s', fmt(r.rowsSeconds, 2));
    report.add(p, `restore of the same into an empty ${engine}, s`, fmt(r.restoreSeconds, 1));
  } finally {
    await restore?.drop();
  }
}
