// `npm start`: build the web app and the server when their sources changed since the last build, in a process of
// its own that exits before the server starts, then run the server in this process. `npm run build`
// (`--build-only`) builds what changed and stops there. The e2e harness (e2e/support/server.ts) runs this same file, so browser journeys start the app as a user does.
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildOnly = process.argv.includes('--build-only');
/** The build `npm start` runs before its server: it speaks the server's JSON lines. */
const buildForServer = process.argv.includes('--for-server');

/**
 * What this script says: a sentence for `npm run build`, a JSON line of the server's shape (its log library's
 * levels) when the server follows, so that every line of the service's log is JSON (docs/decisions/040).
 */
function say(level, message) {
  const text =
    buildOnly && !buildForServer
      ? message
      : JSON.stringify({
          level: level === 'error' ? 50 : level === 'warn' ? 40 : 30,
          time: Date.now(),
          pid: process.pid,
          hostname: hostname(),
          msg: message,
        });
  if (level === 'info') console.log(text);
  else console.error(text);
}
process.chdir(root); // vite.config.ts and the default DATA_DIR (./data) are relative to the project

/**
 * V8 flags for a server that fits a small machine (docs/decisions/037-memory-of-a-small-server.md):
 * - the embedded database's WebAssembly on the baseline compiler alone: the optimizing compiler's work on it took the
 *   idle server from about 200 MiB to 750 MiB for half a minute after every start, for little gain on the app's short
 *   statements;
 * - a young generation of at most 8 MiB a semi-space: V8 sizes it from the machine's memory, and on a large one it grew
 *   to over 40 MiB in a long CSV export (peak RSS 100k rows / 10k rows 1.50; 1.20 with the cap);
 * - an old generation that grows by at most half its live size before a full collection: V8 lets it reach up to four
 *   times that, and a long export on PostgreSQL, whose young collections promote a steady trickle of short-lived
 *   objects, filled it to about 95 MiB from a live 28 (peak RSS 100k rows / 10k rows 1.53; 1.04 with the cap).
 * Only a new process takes V8 flags, so this one becomes that process (same pid, so a supervisor's signals still reach
 * the server); a cluster worker inherits them. Where Node lacks process.execve (before 22.15), the server runs
 * without them.
 */
const BASELINE_WASM = '--liftoff-only';
const SERVER_V8_FLAGS = [BASELINE_WASM, '--max-semi-space-size=8', '--heap-growing-percent=50'];
if (!process.execArgv.includes(BASELINE_WASM) && !buildOnly && typeof process.execve === 'function') {
  try {
    process.execve(process.execPath, [
      process.execPath,
      ...SERVER_V8_FLAGS,
      ...process.execArgv,
      ...process.argv.slice(1),
    ]);
  } catch (error) {
    say(
      'warn',
      `Running without ${SERVER_V8_FLAGS.join(' ')}: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/**
 * What is built, from what. Each output gets a stamp written only after a successful build (`vite build` empties
 * dist/web first, so a failed build leaves no stamp).
 */
const web = {
  name: 'web app',
  outDir: join(root, 'dist', 'web'),
  output: 'index.html',
  sources: ['src/web', 'src/common', 'vite.config.ts', 'package.json', 'scripts/start.mjs'],
  build: buildWeb,
};
/**
 * The server as one bundle of our code (dependencies stay in node_modules): no TypeScript transform and a few
 * files to load instead of hundreds, so a restart after a crash serves sooner (docs/decisions/031). It sits as deep
 * as src/server/db, so migrate.ts finds package.json at the same relative path; the migrations are copied beside it.
 */
const server = {
  name: 'server',
  outDir: join(root, 'dist', 'server', 'app'),
  output: 'main.js',
  sources: ['src/server', 'src/common', 'package.json', 'scripts/start.mjs'],
  build: buildServer,
};

/** The newest mtime under `path` (directories count too, so a deleted file is a change). */
function newestChange(path) {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(full).reduce(
    (newest, name) => Math.max(newest, newestChange(join(path, name))),
    stat.mtimeMs,
  );
}

function isUpToDate(target) {
  const stamp = join(target.outDir, '.built');
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  return (
    builtAt > 0 &&
    existsSync(join(target.outDir, target.output)) &&
    target.sources.every((s) => newestChange(s) <= builtAt)
  );
}

/**
 * A build this user may not make: the code was installed by another user (root, as docs/operations.md does it) or
 * sits on a read-only file system, and its sources changed since its build (an update without `npm run build`). One
 * line saying what to do, not a stack.
 */
function cannotBuild(target, error) {
  let user = `uid ${process.getuid?.()}`;
  try {
    user = userInfo().username; // the user this process runs as, whatever $USER says
  } catch {
    // a uid with no name in /etc/passwd (a container's): the number says it
  }
  say(
    'error',
    `The ${target.name} is older than its sources, and ${join(root, 'dist')} is not writable by ${user} ` +
      `(${error.code}): run \`npm run build\` in ${root} as the user who installed it, then start again.`,
  );
  process.exit(1);
}

/** One build at a time (say `npm start` and the browser tests together): a lock file holding the builder's pid. */
async function withBuildLock(target, work) {
  const lock = join(root, 'dist', '.web-build.lock');
  try {
    mkdirSync(join(root, 'dist'), { recursive: true });
  } catch (error) {
    if (['EACCES', 'EPERM', 'EROFS'].includes(error.code)) cannotBuild(target, error);
    throw error;
  }
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (['EACCES', 'EPERM', 'EROFS'].includes(error.code)) cannotBuild(target, error);
      if (error.code !== 'EEXIST') throw error;
      let holder;
      try {
        holder = readFileSync(lock, 'utf8');
      } catch {
        continue; // released meanwhile
      }
      // A lock whose builder is gone was left by a killed build; an empty one is being written right now.
      if (holder !== '' && !isAlive(Number(holder))) rmSync(lock, { force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

function isAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function buildWeb() {
  // Always a production build: Vite keeps a NODE_ENV it finds (Vitest sets `test`, a shell may say `development`),
  // and React would then ship its development build, several times larger and slower.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  const { build } = await import('vite');
  try {
    await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

async function buildServer() {
  const esbuild = await import('esbuild');
  rmSync(server.outDir, { recursive: true, force: true });
  await esbuild.build({
    // The embedded engine's thread is a module of its own, loaded by path (src/server/db/embedded-thread.ts).
    entryPoints: {
      main: join(root, 'src/server/main.ts'),
      'embedded-worker': join(root, 'src/server/db/embedded-worker.ts'),
    },
    outdir: server.outDir,
    bundle: true,
    // S3 storage (and the AWS SDK it imports) is loaded only when configured: a chunk of its own.
    splitting: true,
    // Beside main.js, not in a folder: a chunk holding migrate.ts finds the migrations and package.json the same way.
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies in the bundle too: one file to read instead of hundreds found through Node's module resolution
    // (a restart serves 0.25 s sooner). Left outside: those that find files of their own beside their code
    // (PGlite's WebAssembly) or load native addons, the AWS SDK, loaded only with S3 storage, and prom-client, loaded
    // only with METRICS_TOKEN: a CommonJS package imported with `import()`, whose classes the bundle lost (start-up
    // failed with "Registry is not a constructor"), where Node's own loader finds them. Their CommonJS `require` of
    // Node's modules needs a `require` in an ES module: the banner makes one.
    external: [
      '@electric-sql/pglite',
      '@node-rs/argon2',
      'sharp',
      'pg',
      'pg-native',
      '@aws-sdk/*',
      'prom-client',
    ],
    banner: {
      js: "import { createRequire as __easyFormRequire } from 'node:module'; const require = __easyFormRequire(import.meta.url);",
    },
    sourcemap: true,
    logLevel: 'warning',
  });
  await esbuild.stop(); // its service process is not needed while the server runs
  cpSync(join(root, 'src/server/db/migrations'), join(server.outDir, 'migrations'), { recursive: true });
}

/**
 * The build runs in a process of its own that exits before the server starts: Vite and esbuild leave the process
 * that ran them holding about 900 MiB more, never given back, and esbuild's service as a child; the server then
 * starts beside none of it (docs/decisions/037-memory-of-a-small-server.md). Only when something is out of date: an
 * ordinary restart starts no extra Node. A cluster worker (WORKERS=N) runs this file again: its primary has built
 * everything already.
 */
if (!buildOnly && !cluster.isWorker && [web, server].every(isUpToDate)) {
  for (const target of [web, server]) say('info', `The ${target.name} is up to date.`);
} else if (!buildOnly && !cluster.isWorker) {
  const build = spawnSync(
    process.execPath,
    [fileURLToPath(import.meta.url), '--build-only', '--for-server'],
    { stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(1);
}

for (const target of buildOnly ? [web, server] : []) {
  if (isUpToDate(target)) {
    say('info', `The ${target.name} is up to date.`);
    continue;
  }
  await withBuildLock(target, async () => {
    if (isUpToDate(target)) {
      say('info', `The ${target.name} is up to date.`); // built meanwhile by whoever held the lock
      return;
    }
    say('info', `Building the ${target.name}…`);
    const started = Date.now();
    try {
      await target.build();
    } catch (error) {
      say('error', `Building the ${target.name} failed: ${error instanceof Error ? error.message : error}`);
      process.exitCode = 1;
      return;
    }
    writeFileSync(join(target.outDir, '.built'), new Date().toISOString());
    say('info', `Built the ${target.name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });
  if (process.exitCode === 1) process.exit(1);
}

if (buildOnly) process.exit(0);

// The server runs in this process: one Node start fewer than a child process, so a restart serves sooner, and a
// supervisor's signals reach the server itself. The source maps are written beside the bundle but not loaded (reading
// them cost each start 0.1-0.3 s): `NODE_OPTIONS=--enable-source-maps npm start` makes a logged stack name the
// TypeScript file and line.
await import(pathToFileURL(join(server.outDir, server.output)).href);
