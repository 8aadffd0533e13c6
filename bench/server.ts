// Runs the production server the way `npm start` does (node scripts/start.mjs), and reads its memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/server/testing/free-port.ts';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** The per-IP limits the bench raises, because all its load comes from one address. Printed in the output. */
export const BENCH_RATE_LIMITS = JSON.stringify({
  submissionsPerIp: { max: 1_000_000 },
  // Part 11 posts Next without JavaScript for ten seconds at ten connections.
  pageStepsPerIp: { max: 10_000_000 },
  uploadsPerIp: { max: 100_000 },
  // Part 4 uploads 1.6 GiB from one address, none of it claimed by a submission.
  unclaimedUploadsPerIp: { max: 100_000 },
  unclaimedUploadBytesPerIp: { max: 64 * 1024 ** 3 },
});

const APP_VARIABLES = ['PORT', 'HOST', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'RATE_LIMITS'];

export type BenchServer = {
  url: string;
  /** The server's pid (scripts/start.mjs runs it in its own process), whose memory is measured. */
  pid: number;
  /** From the spawn to the first 200 of /api/health, ms. */
  readyMs: number;
  output(): string;
  stop(): Promise<void>;
  /** kill -9 of the server and anything it started, as a crash or the OOM killer does; resolves once it is gone. */
  crash(): Promise<void>;
};

export type ServerOptions = {
  dataDir: string;
  databaseUrl: string | undefined;
  mail: MailCapture;
  env?: Record<string, string>;
  /**
   * Node flags such as --cpu-prof, which NODE_OPTIONS refuses: the server (src/server/main.ts) is then started
   * directly, on the web app that scripts/start.mjs built last.
   */
  nodeFlags?: string[];
};

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export async function startBenchServer(options: ServerOptions): Promise<BenchServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const spawnedAt = performance.now();
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  const direct = options.nodeFlags !== undefined;
  const args = direct
    ? [
        '--liftoff-only',
        '--max-semi-space-size=8',
        '--heap-growing-percent=50',
        ...(options.nodeFlags ?? []),
        '--import',
        'tsx',
        'src/server/main.ts',
      ]
    : ['scripts/start.mjs'];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      PUBLIC_URL: url,
      SMTP_URL: options.mail.url,
      LOG_LEVEL: 'warn',
      RATE_LIMITS: BENCH_RATE_LIMITS,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const onExit = () => killGroup(child, 'SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.off('exit', onExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    // scripts/start.mjs runs the server in its own process (ADR 031).
    const pid = child.pid;
    if (ok && pid !== undefined) {
      const readyMs = performance.now() - spawnedAt;
      const crash = async () => {
        process.off('exit', onExit);
        killGroup(child, 'SIGKILL');
        await exited;
      };
      return { url, pid, readyMs, output: () => output, stop, crash };
    }
    // Often, so that readyMs is the server's start and not this loop's step.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await stop();
  throw new Error(`The server did not start. Its output:\n${output}`);
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) =>
    Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Resets VmHWM to the current RSS (Linux clear_refs 5), so the next peak belongs to what follows. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Samples the RSS every 20 ms while `work` runs: a fallback peak where clear_refs is not allowed. */
export async function peakDuring<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ value: T; peak: number }> {
  const reset = resetPeak(pid);
  let sampled = memoryOf(pid).rss;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, memoryOf(pid).rss);
    } catch {
      // gone
    }
  }, 20);
  try {
    const value = await work();
    const { rss, peak } = memoryOf(pid);
    return { value, peak: reset ? Math.max(peak, sampled) : Math.max(sampled, rss) };
  } finally {
    clearInterval(timer);
  }
}
