// `npm run bench`: measures what users feel, each figure next to its target, as ratios measured in this same run.
// docs/benchmarks.md explains every figure. Exits 0 whether targets are met or not.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { startMailCapture } from '../src/server/testing/mail-capture.ts';
import type { BenchRun } from './bench-run.ts';
import { measureBranching } from './part-branching.ts';
import { measureIngest } from './part-ingest.ts';
import { measureKinds } from './part-kinds.ts';
import { measureLogic } from './part-logic.ts';
import { measureBackup, measureOwnerViews, measureWebhooks } from './part-owner-data.ts';
import { measureLighthouse, measurePage } from './part-pages.ts';
import { measureRestart, measureUpload, measureWorkers } from './part-process.ts';
import { fmt, mergeResults, Report } from './report.ts';
import { BENCH_RATE_LIMITS, root } from './server.ts';
import { mib } from './stats.ts';

const started = Date.now();
/** `npm run bench -- ingest page scale upload webhooks workers backup lighthouse restart logic branching kinds` runs only those parts (all of them by default). */
const PARTS = [
  'ingest',
  'page',
  'scale',
  'upload',
  'webhooks',
  'workers',
  'backup',
  'lighthouse',
  'restart',
  'logic',
  'branching',
  'kinds',
] as const;
const asked = process.argv.slice(2).filter((a) => (PARTS as readonly string[]).includes(a));
const unknown = process.argv
  .slice(2)
  .filter((a) => !(PARTS as readonly string[]).includes(a) && a !== '--deep');
if (unknown.length > 0) {
  console.error(`Unknown part ${unknown.join(', ')}: choose from ${PARTS.join(', ')}, and --deep`);
  process.exit(2);
}
const runs = (name: (typeof PARTS)[number]) => asked.length === 0 || asked.includes(name);
const log = (line: string) => console.log(line);
const pgUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
// BENCH_ENGINES=postgres (or pglite) keeps one engine, e.g. to repeat a PostgreSQL figure without the embedded one.
const only = process.env.BENCH_ENGINES?.split(',').map((e) => e.trim()) ?? [];
const engines = [
  { engine: 'pglite' as const, databaseUrl: undefined },
  ...(pgUrl ? [{ engine: 'postgres' as const, databaseUrl: pgUrl }] : []),
].filter((e) => only.length === 0 || only.includes(e.engine));
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  memory: mib(totalmem()),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};
const report = new Report();
const raw: Record<string, unknown> = { machine };
const mail = await startMailCapture();
const temp = await mkdtemp(join(tmpdir(), 'easyform-bench-'));
const dirOf = async (name: string) => mkdtemp(join(temp, `${name}-`));

log(`Easy Form bench — ${machine.cores} cores (${machine.cpu}), ${machine.memory}, Node ${machine.node}`);
log(`Per-IP limits raised for this run (all load comes from 127.0.0.1): RATE_LIMITS=${BENCH_RATE_LIMITS}`);
log(
  `Engines: ${engines.map((e) => e.engine).join(', ')}${pgUrl ? '' : ' (set BENCH_DATABASE_URL to add PostgreSQL)'}`,
);

async function part(name: string, work: () => Promise<void>): Promise<void> {
  log(`\n▶ ${name}`);
  report.step = name;
  const began = Date.now();
  try {
    await work();
    log(`  (${name}: ${Math.round((Date.now() - began) / 1000)} s)`);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    log(`  ERROR: ${message}`);
    report.add(name, 'error', message.split('\n')[0] ?? '', '', false);
  }
}

const bench: BenchRun = { report, raw, mail, dirOf, log };

for (const on of runs('ingest') ? engines : [])
  await part(`1. ingest (${on.engine})`, () => measureIngest(bench, on));
if (runs('page')) await part('2. public form weight and LCP', () => measurePage(bench));
for (const on of runs('scale') ? engines : [])
  await part(`3, 5. owner views, CSV (${on.engine})`, () => measureOwnerViews(bench, on));
for (const on of runs('webhooks') ? engines : [])
  await part(`6. webhook deliveries (${on.engine})`, () => measureWebhooks(bench, on));
if (runs('upload')) await part('4. upload memory (pglite)', () => measureUpload(bench));
// WORKERS=2 runs on PostgreSQL only: without BENCH_DATABASE_URL the part is left out, as the engine is.
if (runs('workers') && pgUrl)
  await part('7. 1 process vs WORKERS=2 (postgres)', () => measureWorkers(bench, pgUrl));
for (const on of runs('backup') ? engines : [])
  await part(`7. backup and restore (${on.engine})`, () => measureBackup(bench, on));
if (runs('lighthouse'))
  await part('8. Lighthouse (mobile, simulated slow 4G)', () => measureLighthouse(bench));
if (runs('restart')) await part('9. restart after kill -9 (pglite)', () => measureRestart(bench));
if (runs('logic')) await part('10. branching evaluator', () => measureLogic(bench));
if (runs('branching')) await part('11. a branching form, customer side', () => measureBranching(bench));
if (runs('kinds'))
  await part('12. a form with every kind of question', () =>
    measureKinds(bench, { lighthouse: asked.includes('kinds') || process.argv.includes('--deep') }),
  );

await mail.close();
await rm(temp, { recursive: true, force: true });
const seconds = (Date.now() - started) / 1000;
const out = join(root, 'bench', 'results.json');
const previous = await readFile(out, 'utf8')
  .then((text) => JSON.parse(text) as Parameters<typeof mergeResults>[0])
  .catch(() => undefined);
const results = mergeResults(previous, {
  when: new Date().toISOString(),
  seconds,
  rows: report.rows,
  ...raw,
});
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
log(`\n${report.table()}\n\n${report.summary()} in ${fmt(seconds, 0)} s. Updated bench/results.json.`);
process.exit(0);
