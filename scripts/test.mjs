// `npm test`: every check and every Vitest pass, then a table of what each took. Extra arguments go to Vitest
// (`npm test -- e2e/smoke`), and then the static checks are skipped.
//
// Each test runs in at least one cell of engine × storage (docs/decisions/034-fast-ci.md):
//  1. the static checks (tsc, ESLint, Prettier), side by side;
//  1a. the first start of this checkout, with its build;
//  2. the server and web projects on the embedded engine (PGlite) with files on disk;
//  3. the browser journeys (e2e), on their own;
//  4. when TEST_DATABASE_URL is set (`bash .ci/run` and `npm run test:pg` set it): the server suites that touch SQL
//     again on that PostgreSQL server, those that store files with files in S3-compatible storage (an S3-protocol
//     server each test app starts), the rest with files on disk. What only checks request shapes runs once, in 2.
// TEST_DATABASE_URL is kept out of the other passes, so that each engine runs where it is meant to.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
const { TEST_DATABASE_URL: postgresUrl, ...env } = process.env;
const work = mkdtempSync(join(tmpdir(), 'easyform-test-run-'));

/** The suites that store files: on PostgreSQL they run with files in S3-compatible storage. */
const FILE_SUITES = [
  'src/server/storage/storage.test.ts',
  'src/server/features/uploads',
  'src/server/features/profile',
  'src/server/features/submissions/ingest/submissions.test.ts',
  'src/server/features/submissions/ingest/many-files.test.ts',
  'src/server/features/submissions/responses/managing-responses.test.ts',
  'src/server/features/submissions/responses/owner-reads.test.ts',
  'src/server/features/submissions/no-script/html-submit.test.ts',
  'src/server/features/submissions/no-script/html-submit-generated.test.ts',
  'src/server/features/webhooks',
  'src/server/features/backup',
];
/**
 * What checks request shapes, pure functions or one engine's own behaviour, and so runs on the embedded engine only:
 * the shared pure code, the config reader, headers, the served web app, slow bodies, the load gauge, the fuzzer
 * (every route's validation; its stored-state check is the same SQL the integration suites run on both engines), the
 * S3 outage fronts and the S3 stand-in (storage, not SQL), the embedded engine's power-cut model, and start-ups refused for a setting.
 */
const ONE_ENGINE = [
  'src/common/**',
  'src/server/runtime/config.test.ts',
  'src/server/http/errors.test.ts',
  'src/server/http/security-headers.test.ts',
  'src/server/pages/web-app.test.ts',
  'src/server/http/body-rate.test.ts',
  'src/server/http/load-gauge.test.ts',
  'src/server/http/fuzz.test.ts',
  'src/server/storage/storage-outage.test.ts',
  'src/server/storage/upload-stall.test.ts',
  // The S3 stand-in's own behaviour: no database.
  'src/server/testing/s3-test-server.test.ts',
  'src/server/db/power-cut.test.ts',
  'src/server/db/embedded-prepared.test.ts',
  // What the embedded engine lacks (autovacuum); PostgreSQL does it itself.
  'src/server/db/embedded-upkeep.test.ts',
  // Start-ups refused for a setting; each starts the embedded engine or none (PostgreSQL's own refusal: e2e/smoke).
  'src/server/main.test.ts',
  // A PostgreSQL server and an S3-protocol server of its own, which it stops and starts.
  'src/server/runtime/boot-and-health.test.ts',
  // The disk under DATA_DIR, on a tmpfs of its own: the same whatever the engine.
  'src/server/runtime/readiness-disk.test.ts',
  'src/server/runtime/process-log.test.ts',
];
const SERVER = ['--project', 'server', '--project', 'server-alone'];
/** The environment that leaves these out of the server projects (vitest.config.ts reads TEST_EXCLUDE). */
const leavingOut = (paths) => ({
  TEST_EXCLUDE: paths
    .map((path) => (path.endsWith('.ts') || path.endsWith('**') ? path : `${path}/**`))
    .join('\n'),
});

const rows = [];
const seconds = (since) => Math.round((performance.now() - since) / 1000);

/** The machine's CPU time so far, busy and in all (Linux's /proc/stat, in ticks); null elsewhere. */
function cpuTicks() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((sum, n) => sum + n, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}
/**
 * How many cores the whole machine kept busy on average since `since` (a cpuTicks()): where a pass leaves cores
 * idle, more of it can run side by side; where it keeps them all busy, only less work makes it faster.
 */
function coresBusy(since) {
  const now = cpuTicks();
  if (!since || !now || now.total === since.total) return '-';
  return (((now.busy - since.busy) / (now.total - since.total)) * availableParallelism()).toFixed(2);
}

/** Runs a command to its end; `capture` keeps its output to print whole once it ends (for commands run together). */
function run(command, commandArgs, { runEnv = env, capture = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env: runEnv,
      stdio: capture ? 'pipe' : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The static checks side by side: each prints its output once it has finished. */
async function staticChecks() {
  console.log('\n▶ Type check, lint and format check, side by side\n');
  const started = performance.now();
  const ticks = cpuTicks();
  const checks = [
    ['tsc --noEmit', bin('tsc'), ['--noEmit']],
    ['eslint .', bin('eslint'), ['.']],
    ['prettier --check .', bin('prettier'), ['--check', '.', '--log-level', 'warn']],
  ];
  const results = await Promise.all(
    checks.map(async ([title, command, commandArgs]) => {
      const result = await run(command, commandArgs, { capture: true });
      console.log(`${result.code === 0 ? '✓' : '✗'} ${title}\n${result.output}`);
      return result.code;
    }),
  );
  rows.push({
    pass: 'tsc, eslint, prettier (side by side)',
    tests: '-',
    seconds: seconds(started),
    cores: coresBusy(ticks),
  });
  if (results.some((code) => code !== 0)) finish(1);
}

let reports = 0;
/** One Vitest run, resolving with its exit code; its test count is read from the JSON report it writes beside it. */
async function vitestPass(title, passArgs, runEnv) {
  console.log(`\n▶ ${title}\n`);
  const report = join(work, `${reports++}.json`);
  const started = performance.now();
  const ticks = cpuTicks();
  const { code } = await run(
    process.execPath,
    [
      vitest,
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      ...passArgs,
      ...args,
    ],
    { runEnv },
  );
  const tests = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')).numTotalTests : '?';
  rows.push({ pass: title, tests, seconds: seconds(started), cores: coresBusy(ticks) });
  return code;
}

/** Ends the run with the table when a pass failed. */
const stopIfFailed = (code) => code !== 0 && finish(code);

/** Prints the table of passes (and appends its rows to CI_TIMINGS, for .ci/run's table), then exits. */
function finish(code) {
  rmSync(work, { recursive: true, force: true });
  console.log('\npass                                                          tests  seconds  cores busy');
  for (const row of rows) {
    console.log(
      `${row.pass.padEnd(60)} ${String(row.tests).padStart(6)} ${String(row.seconds).padStart(8)} ${row.cores.padStart(11)}`,
    );
    if (process.env.CI_TIMINGS)
      appendFileSync(process.env.CI_TIMINGS, `${row.pass}\t${row.tests}\t${row.seconds}\t${row.cores}\n`);
  }
  process.exit(code);
}

if (args.length === 0) await staticChecks();
// The first `npm start` of this checkout, before anything builds it: on a fresh clone its build is then the one every
// later pass serves (e2e/first-start.test.ts).
stopIfFailed(
  await vitestPass('first start: build, then serve', ['--project', 'first-start', '--passWithNoTests'], env),
);
stopIfFailed(
  await vitestPass(
    'server and web, PGlite, files on disk',
    [...SERVER, '--project', 'web', '--project', 'web-alone', '--passWithNoTests'],
    env,
  ),
);
// The journeys run on the embedded engine (e2e/support/server.ts keeps TEST_DATABASE_URL from the servers it starts);
// the scale-out proof (e2e/scale-out.test.ts) is given the PostgreSQL server, when there is one, for its processes.
// They run two files at a time, on their own: beside the PostgreSQL passes the machine was so overloaded that
// start-up tests ran past their deadlines (docs/decisions/034-fast-ci.md).
stopIfFailed(
  await vitestPass(
    'browser journeys (e2e)',
    ['--project', 'e2e', '--passWithNoTests'],
    postgresUrl ? { ...env, TEST_DATABASE_URL: postgresUrl } : env,
  ),
);
if (postgresUrl) {
  const onPostgres = { ...env, TEST_DATABASE_URL: postgresUrl };
  stopIfFailed(
    await vitestPass('server, PostgreSQL, files on disk', [...SERVER, '--passWithNoTests'], {
      ...onPostgres,
      ...leavingOut([...ONE_ENGINE, ...FILE_SUITES]),
    }),
  );
  stopIfFailed(
    await vitestPass(
      'server suites that store files, PostgreSQL, files in S3',
      [...SERVER, '--passWithNoTests', ...FILE_SUITES],
      { ...onPostgres, TEST_STORAGE: 's3' },
    ),
  );
} else {
  console.warn(
    '\n' +
      '⚠ PostgreSQL passes SKIPPED: TEST_DATABASE_URL is unset, so the server suites ran on PGlite only.\n' +
      '  `npm run test:pg` runs them on a throwaway PostgreSQL 15; `bash .ci/run` runs everything as CI does.\n',
  );
}

// e2e/support/browser.ts skips the browser journeys without Chromium; repeat it here, where it cannot scroll away.
if (!['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].some((path) => existsSync(path))) {
  console.warn(
    '⚠ Browser journeys SKIPPED: neither /usr/bin/chromium-headless-shell nor /usr/bin/chromium was found.\n' +
      '  Run `bash .ci/run` or `apt-get install -y chromium-headless-shell` to run them.\n',
  );
}
finish(0);
