// Parts 3 and 5: owner views at 1k and 100k submissions, CSV export at 10k and 100k (and 1,000,000 with --deep).
import { Readable } from 'node:stream';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Form } from '#common/forms.ts';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { api, createForm, signUpOwner, type BenchOwner } from './owner.ts';
import { seedSubmissions } from './seed.ts';
import { memoryOf, peakDuring, startBenchServer, type BenchServer } from './server.ts';
import { DEEP, medianMs, MiB } from './stats.ts';

export const VIEW_LEVELS = { small: 1_000, large: 100_000 } as const;
export const CSV_LEVELS = { small: 10_000, large: 100_000 } as const;
/** The CSV export again at this many rows in a deep run (`--deep`): its memory must stay as flat as at 100k. */
export const CSV_HUGE = 1_000_000;
const REPEATS = 20;

export type ViewTimes = {
  summary: number;
  firstPage: number;
  lastPage: number;
  oneSubmission: number;
  /** GET /api/formResults: read from counters, so it should not grow with the submissions (issue 12). */
  results: number;
};
export type CsvResult = {
  rows: number;
  seconds: number;
  rowsPerSec: number;
  rssBefore: number;
  peak: number;
};
export type ScaleResult = {
  engine: string;
  seedSeconds: number;
  views: Record<'small' | 'large', ViewTimes>;
  csv: Record<'small' | 'large', CsvResult> & { huge?: CsvResult };
};

type Page = { total: number; items: { _id: string }[] };

async function timeViews(server: BenchServer, owner: BenchOwner, form: Form, expected: number) {
  const get = <T>(path: string) => api<T>(server.url, owner.token, 'GET', path);
  const first = await get<Page>(`/api/formSubmissions/${form._id}`);
  if (first.total !== expected)
    throw new Error(`expected ${expected} submissions, the server counts ${first.total}`);
  const last = await get<Page>(`/api/formSubmissions/${form._id}?from=oldest`);
  const one = last.items[0]?._id ?? first.items[0]?._id;
  if (!one) throw new Error('no submission to open');
  const results = await get<{ responses: number }>(`/api/formResults/${form._id}`);
  if (results.responses !== expected)
    throw new Error(`expected ${expected} responses in the results, the counters say ${results.responses}`);
  return {
    summary: await medianMs(() => get('/api/formSummary'), REPEATS),
    firstPage: await medianMs(() => get(`/api/formSubmissions/${form._id}`), REPEATS),
    lastPage: await medianMs(() => get(`/api/formSubmissions/${form._id}?from=oldest`), REPEATS),
    oneSubmission: await medianMs(() => get(`/api/forms/${one}`), REPEATS),
    results: await medianMs(() => get(`/api/formResults/${form._id}`), REPEATS),
  };
}

/** Downloads the whole CSV, counting lines, while sampling the server's peak RSS. */
async function exportCsv(
  server: BenchServer,
  owner: BenchOwner,
  form: Form,
  rows: number,
): Promise<CsvResult> {
  const rssBefore = memoryOf(server.pid).rss;
  const started = performance.now();
  const { value: lines, peak } = await peakDuring(server.pid, async () => {
    const response = await fetch(`${server.url}/api/formSubmissions/${form._id}/csv`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    if (!response.ok || !response.body) throw new Error(`CSV export answered ${response.status}`);
    let count = 0;
    for await (const chunk of Readable.fromWeb(response.body as WebStream))
      for (const byte of chunk as Uint8Array) if (byte === 10) count++;
    return count;
  });
  const seconds = (performance.now() - started) / 1000;
  // One header line; answers with line breaks are quoted and add lines of their own, so count rows from the seed.
  if (lines < rows) throw new Error(`the CSV has ${lines} lines for ${rows} submissions`);
  return { rows, seconds, rowsPerSec: rows / seconds, rssBefore, peak };
}

export async function benchScale(options: {
  engine: 'pglite' | 'postgres';
  databaseUrl: string | undefined;
  dataDir: string;
  mail: MailCapture;
  log: (line: string) => void;
}): Promise<ScaleResult> {
  const env = { UPLOAD_MAX_BYTES: String(64 * MiB) };
  const start = () => startBenchServer({ ...options, env });
  const { engine, log } = options;
  let server = await start();
  const owner = await signUpOwner(server.url, options.mail);
  const form = await createForm(server.url, owner);
  await server.stop();

  let seedSeconds = 0;
  let seeded = 0;
  const seedTo = async (count: number) => {
    seedSeconds += (await seedSubmissions({ ...options, form, from: seeded, to: count })) / 1000;
    seeded = count;
    log(
      `  ${engine}: seeded ${count.toLocaleString('en-US')} submissions (${seedSeconds.toFixed(1)} s so far)`,
    );
  };

  await seedTo(VIEW_LEVELS.small);
  server = await start();
  try {
    const small = await timeViews(server, owner, form, VIEW_LEVELS.small);
    await server.stop();

    await seedTo(CSV_LEVELS.small);
    server = await start();
    const csvSmall = await exportCsv(server, owner, form, CSV_LEVELS.small);
    await server.stop();

    await seedTo(VIEW_LEVELS.large);
    server = await start();
    // The export first, on a fresh server as at 10k, so that its peak is comparable; then the views.
    const csvLarge = await exportCsv(server, owner, form, CSV_LEVELS.large);
    const large = await timeViews(server, owner, form, VIEW_LEVELS.large);
    let csvHuge: CsvResult | undefined;
    if (DEEP) {
      await server.stop();
      await seedTo(CSV_HUGE);
      server = await start();
      csvHuge = await exportCsv(server, owner, form, CSV_HUGE);
    }
    return {
      engine,
      seedSeconds,
      views: { small, large },
      csv: { small: csvSmall, large: csvLarge, ...(csvHuge ? { huge: csvHuge } : {}) },
    };
  } finally {
    await server.stop();
  }
}
