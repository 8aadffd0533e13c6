import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../../src/server/testing/free-port.ts';
import { startMailCapture, type MailCapture } from '../../src/server/testing/mail-capture.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export type RunningServer = {
  /** http://127.0.0.1:<port>, also the server's PUBLIC_URL, so links in mails point here. */
  url: string;
  /** The SMTP server the app sends its mail to. */
  mail: MailCapture;
  /** Everything the server printed so far. */
  output(): string;
  /**
   * Sends `signal` to `npm start`'s process (which passes it on to the server, as a supervisor's would reach it; a
   * SIGKILL goes to both) and resolves with the exit code once it has exited.
   */
  signal(signal: NodeJS.Signals): Promise<number | null>;
  /** Stops the server (its whole process group), the mail capture if we started it, and removes DATA_DIR. */
  stop(): Promise<void>;
};

export type StartServerOptions = {
  /** Extra environment for the server, e.g. `{ UPLOAD_MAX_BYTES: '1000' }`. */
  env?: Record<string, string>;
  /** A mail capture to send mail to; by default the server gets one of its own. */
  mail?: MailCapture;
  /** How long to wait for the build and for /api/health to answer 200. */
  timeoutMs?: number;
  /** Serve this DATA_DIR (kept by stop()) instead of a fresh one, e.g. to restart on what a stopped server left. */
  dataDir?: string;
  /**
   * A DATA_DIR without a database yet (a fresh one, or `dataDir` before its first start) starts from the run's
   * migrated embedded database (support/embedded-template.ts) unless this is set: then the server runs initdb and
   * the migrations itself, as on a new install.
   */
  empty?: boolean;
  /** Told each piece of what the server prints, as it prints it (before it serves, too). */
  onOutput?: (text: string) => void;
};

/**
 * The app's own settings are never inherited from the shell running the tests: a developer's DATABASE_URL or
 * SMTP_URL must not receive test data. The server always runs on the embedded PGlite in a fresh DATA_DIR.
 */
const APP_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'SMTP_URL',
  'MAIL_FROM',
  'PUBLIC_URL',
  'UPLOAD_MAX_BYTES',
  'FORM_TIMEZONE',
  'TRUST_PROXY',
  'RATE_LIMITS',
  'RATE_LIMIT_MULTIPLIER',
  'LOG_LEVEL',
  'WEBHOOK_ALLOW_PRIVATE',
  'STORAGE_URL',
  'TEST_DATABASE_URL',
  // Vitest's NODE_ENV=test is not what a user's shell has when they run `npm start`.
  'NODE_ENV',
];

const running = new Set<number>();
// If the test process ends without calling stop(), do not leave servers behind.
process.once('exit', () => {
  for (const pid of running) killGroup(pid, 'SIGKILL');
});

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** The run's migrated embedded database; none where this file is used outside a Vitest run (the bench). */
export function embeddedTemplate(): string {
  try {
    return inject('embeddedTemplate');
  } catch {
    return '';
  }
}

/**
 * Runs the app exactly as a user's `npm start` does (`node scripts/start.mjs`: build the web app if its sources
 * changed, apply migrations, serve app + API), on a free port with a fresh DATA_DIR and mail going to a capture.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const ownMail = options.mail === undefined;
  const mail = options.mail ?? (await startMailCapture());
  const port = await freePort();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'easyform-e2e-')));
  const template = embeddedTemplate();
  if (!options.empty && !options.env?.DATABASE_URL && template && !existsSync(join(dataDir, 'pgdata')))
    await cp(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  const url = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of APP_VARIABLES) delete env[name];
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      SMTP_URL: mail.url,
      LOG_LEVEL: 'warn',
      // Journeys stop their servers at once; the shutdown test asks for the drain it checks.
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stop() reaches start.mjs and the server it spawned.
    detached: true,
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn node scripts/start.mjs');
  running.add(pid);
  let output = '';
  const hear = (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(chunk.toString());
  };
  child.stdout.on('data', hear);
  child.stderr.on('data', hear);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stopped = false;
  let signalled = false;
  // A server that dies under a journey would otherwise only show as refused connections: say why.
  child.once('exit', (code, signal) => {
    if (!stopped && !signalled)
      console.error(`The e2e server on port ${port} exited (${code ?? signal}). Its output:\n${output}`);
  });

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) {
      killGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(pid);
    if (ownMail) await mail.close();
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };
  const signal = (name: NodeJS.Signals) => {
    signalled = true;
    // SIGKILL cannot be passed on: it goes to the whole group (npm start and the server), as a power cut would.
    if (name === 'SIGKILL') killGroup(pid, 'SIGKILL');
    else child.kill(name);
    return exited;
  };

  const timeoutMs = options.timeoutMs ?? 150_000;
  const deadline = Date.now() + timeoutMs;
  let status = 'no answer';
  while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
    status = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => `HTTP ${response.status}`,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (status === 'HTTP 200') return { url, mail, output: () => output, signal, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const why =
    child.exitCode !== null || child.signalCode !== null
      ? `exited with ${child.exitCode ?? child.signalCode}`
      : `did not answer 200 on /api/health within ${timeoutMs} ms (last: ${status})`;
  await stop();
  throw new Error(`The server (node scripts/start.mjs on port ${port}) ${why}. Its output:\n${output}`);
}
