// The Vitest part of `npm test`. Extra arguments go to Vitest (`npm test -- e2e/smoke`).
//  1. the server and web projects, the server integration suite on in-memory PGlite;
//  2. the browser journeys (e2e) on their own, so that Chromium and the servers they start do not compete for the
//     CPU with the other suites: on a 2-core machine that competition made waits time out now and then;
//  3. when TEST_DATABASE_URL is set (`bash .ci/run` and `npm run test:pg` set it): the server project again, on that
//     PostgreSQL server (src/server/test-app.ts creates a fresh database per test app there).
// TEST_DATABASE_URL is kept out of the first pass so that each engine runs exactly once.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = process.argv.slice(2);
const { TEST_DATABASE_URL: postgresUrl, ...env } = process.env;

const S3_SUITES = [
  'src/server/storage',
  'src/server/uploads',
  'src/server/profile',
  'src/server/submissions/submissions.test.ts',
  'src/server/submissions/managing-responses.test.ts',
  'src/server/submissions/owner-reads.test.ts',
  'src/server/submissions/html-submit.test.ts',
  'src/server/submissions/html-submit-generated.test.ts',
  'src/server/webhooks',
  'src/server/backup',
];

function vitestRun(title, extraArgs, runEnv) {
  console.log(`\n▶ ${title}\n`);
  const result = spawnSync(process.execPath, [vitest, 'run', ...extraArgs, ...args], {
    cwd: root,
    env: runEnv,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

vitestRun(
  'Vitest: server and web projects, server integration suite on PGlite',
  ['--project', 'server', '--project', 'web', '--passWithNoTests'],
  env,
);
// The suites that store files, again with uploads in S3-compatible storage: each test app starts an S3-protocol
// server (s3rver) on 127.0.0.1 (src/server/test-app.ts).
vitestRun(
  'Vitest: the upload suites again with files in S3-compatible storage (s3rver)',
  ['--project', 'server', '--passWithNoTests', ...S3_SUITES],
  { ...env, TEST_STORAGE: 's3' },
);
// The journeys run on the embedded engine (e2e/support/server.ts keeps TEST_DATABASE_URL from the servers it starts);
// the scale-out proof (e2e/scale-out.test.ts) is given the PostgreSQL server, when there is one, for its processes.
vitestRun(
  'Vitest: browser journeys (e2e)',
  ['--project', 'e2e', '--passWithNoTests'],
  postgresUrl ? { ...env, TEST_DATABASE_URL: postgresUrl } : env,
);

if (postgresUrl) {
  const where = new URL(postgresUrl);
  vitestRun(
    `Vitest: server integration suite again on PostgreSQL at ${where.host}`,
    ['--project', 'server', '--passWithNoTests'],
    { ...env, TEST_DATABASE_URL: postgresUrl },
  );
} else {
  console.warn(
    '\n' +
      '⚠ PostgreSQL pass SKIPPED: TEST_DATABASE_URL is unset, so the server integration suite ran on PGlite only.\n' +
      '  `npm run test:pg` runs it on a throwaway PostgreSQL 15; `bash .ci/run` runs everything as CI does.\n',
  );
}

// e2e/support/browser.ts skips the browser journeys without Chromium; repeat it here, where it cannot scroll away.
if (!existsSync('/usr/bin/chromium')) {
  console.warn(
    '⚠ Browser journeys SKIPPED: Chromium not found at /usr/bin/chromium.\n' +
      '  Run `bash .ci/run` or `apt-get install -y chromium` to run them.\n',
  );
}
