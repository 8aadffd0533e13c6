// `npm start`: build the web app when its sources changed since the last build, then run the server.
// The e2e harness (e2e/support/server.ts) runs this same file, so browser journeys start the app as a user does.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root); // vite.config.ts and the default DATA_DIR (./data) are relative to the project
const outDir = join(root, 'dist', 'web');
// Written only after a successful build; `vite build` empties dist/web first, so a failed build leaves no stamp.
const stamp = join(outDir, '.built');
const sources = ['src/web', 'src/common', 'vite.config.ts', 'package.json', 'scripts/start.mjs'];

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

function isUpToDate() {
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  return (
    builtAt > 0 && existsSync(join(outDir, 'index.html')) && sources.every((s) => newestChange(s) <= builtAt)
  );
}

/** One build at a time (say `npm start` and the browser tests together): a lock file holding the builder's pid. */
async function withBuildLock(work) {
  const lock = join(root, 'dist', '.web-build.lock');
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
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

if (isUpToDate()) {
  console.log('Web app is up to date.');
} else {
  await withBuildLock(async () => {
    if (isUpToDate()) {
      console.log('Web app is up to date.'); // built meanwhile by whoever held the lock
      return;
    }
    console.log('Building the web app…');
    const started = Date.now();
    try {
      // Always a production build: Vite keeps a NODE_ENV it finds (Vitest sets `test`, a shell may say
      // `development`), and React would then ship its development build, several times larger and slower.
      const nodeEnv = process.env.NODE_ENV;
      process.env.NODE_ENV = 'production';
      const { build } = await import('vite');
      try {
        await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
      } finally {
        if (nodeEnv === undefined) delete process.env.NODE_ENV;
        else process.env.NODE_ENV = nodeEnv;
      }
    } catch (error) {
      console.error('Building the web app failed:', error instanceof Error ? error.message : error);
      process.exitCode = 1;
      return;
    }
    writeFileSync(stamp, new Date().toISOString());
    console.log(`Built the web app in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  });
  if (process.exitCode === 1) process.exit(1);
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/server/main.ts')], {
  stdio: 'inherit',
  cwd: root,
});
// Ctrl-C in a terminal reaches both processes; a supervisor's SIGTERM reaches only us, so pass it on.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
