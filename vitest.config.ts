import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Server test files that must each have a fresh process, because they change what every file in it would see:
 * - mail/mailer.test.ts, notifications/notifier-clock.test.ts and webhooks/sender.test.ts fake the clock and
 *   timers of the whole process;
 * The rest share their workers: a file then starts without importing the app and compiling PGlite again (about
 * 8 CPU-seconds a file).
 */
const SERVER_ALONE = [
  'src/server/mail/mailer.test.ts',
  'src/server/features/notifications/notifier-clock.test.ts',
  'src/server/features/webhooks/sender.test.ts',
];
/** The journey of a fresh copy's first start (its own project, below). */
const FIRST_START = 'e2e/first-start.test.ts';
const SERVER_TESTS = ['src/common/**/*.test.ts', 'src/server/**/*.test.ts'];
/**
 * Web test files that must each have a fresh module graph: the customer page keeps module-level state a page load
 * would reset (the open IndexedDB of the device queue, the form it just loaded, the validator it fetched), and these
 * files drive it through several page loads each. The rest share their workers: a file then starts without loading
 * jsdom, React and the testing library again (the web project took 160 s isolated and 45 s shared on a busy machine).
 */
const WEB_ALONE = [
  'src/web/fill/page/customer-app.test.tsx',
  'src/web/fill/submit/proxy-answers.test.tsx',
  'src/web/fill/paged/**/*.test.tsx',
  'src/web/fill/offline/**/*.test.ts',
];
const WEB_SETTINGS = {
  environment: 'jsdom' as const,
  setupFiles: ['src/web/test-setup.ts'],
};
/**
 * Globs of server test files a pass leaves out (scripts/test.mjs's PostgreSQL passes, one per line): Vitest's own
 * `--exclude` does not reach a project's files.
 */
const LEFT_OUT = (process.env.TEST_EXCLUDE ?? '').split('\n').filter(Boolean);
const SERVER_SETTINGS = {
  environment: 'node' as const,
  // One migrated embedded database per run, which every test app starts from.
  globalSetup: 'src/server/testing/test-database-image.ts',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // The embedded database's WebAssembly on V8's baseline compiler, as the server runs it (scripts/start.mjs,
  // docs/decisions/037-memory-of-a-small-server.md); it also spares each worker the optimizing compiler's work on it
  // (src/server/features/submissions and results: 33 s instead of 40).
  execArgv: ['--liftoff-only'],
};

export default defineConfig({
  plugins: [react()],
  test: {
    // Two files at a time, not Vitest's one on a 2-core machine: much of a server test waits on sockets, timers and
    // child processes rather than the CPU. The journeys too run two files at a time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          ...SERVER_SETTINGS,
          include: SERVER_TESTS,
          exclude: [...SERVER_ALONE, ...LEFT_OUT],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'server-alone', ...SERVER_SETTINGS, include: SERVER_ALONE, exclude: LEFT_OUT },
      },
      {
        extends: true,
        test: {
          name: 'web',
          ...WEB_SETTINGS,
          include: ['src/web/**/*.test.{ts,tsx}'],
          exclude: WEB_ALONE,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'web-alone', ...WEB_SETTINGS, include: WEB_ALONE },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.test.ts'],
          exclude: [FIRST_START],
          setupFiles: ['e2e/support/no-csp-violations.ts'],
          // One migrated embedded database, copied for each journey server (e2e/support/embedded-template.ts).
          globalSetup: 'e2e/support/embedded-template.ts',
          // Two journey files at a time (each starts its own server and browser): 1.15 cores busy instead of 0.86.
          fileParallelism: true,
          // The journey files share their workers: each starts its own server and browser in its set-up and stops
          // them after, and keeps nothing else a next file could see; a file then starts without loading Vitest,
          // Playwright and axe again in a new process.
          isolate: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        // The first `npm start` of a fresh copy, with its build: a project of its own, which scripts/test.mjs runs
        // before everything else, so that on a fresh clone the build it measures is the one every later pass uses.
        test: { name: 'first-start', environment: 'node', include: [FIRST_START], testTimeout: 300_000 },
      },
    ],
  },
});
