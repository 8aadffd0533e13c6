// Part 1: submission ingest against the production server, next to a bare Fastify hello-world in the same run.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../e2e/support/server.ts';
import type { MailCapture } from '../src/server/mail/mail-capture.ts';
import { api, createForm, signUpOwner, submissionBody } from './owner.ts';
import { root, startBenchServer } from './server.ts';
import { spread, type Spread } from './stats.ts';

export const CONNECTIONS = 10;
export const DURATION_S = 10;
export const WARMUP_S = 2;
export const ROUNDS = 3;

export type LoadResult = { reqPerSec: number; p50: number; p99: number; non2xx: number; errors: number };
/** `quiet`: the same load on a form with notifications off; `notifyRatio`: app (notifications on) / quiet. */
export type IngestRound = {
  hello: LoadResult;
  app: LoadResult;
  ratio: number;
  quiet: LoadResult;
  notifyRatio: number;
};
export type IngestResult = {
  engine: string;
  rounds: IngestRound[];
  ratio: Spread;
  /** Ingest into a form that notifies its owner (new forms do) over ingest into one that does not (issue 12). */
  notifyRatio: Spread;
  appReqPerSec: Spread;
  helloReqPerSec: Spread;
  p50: Spread;
  p99: Spread;
  non2xx: number;
  rowsStored: number;
  settings: string;
};

type AutocannonJson = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
};

/** autocannon in a process of its own, so the load generator does not share the event loop with anything. */
export function autocannon(url: string, extra: string[] = []): Promise<LoadResult> {
  const bin = join(root, 'node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(CONNECTIONS), '-d', String(DURATION_S)];
  args.push('-W', '[', '-c', String(CONNECTIONS), '-d', String(WARMUP_S), ']', ...extra, url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.once('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        const json = JSON.parse(line) as AutocannonJson;
        resolve({
          reqPerSec: json.requests.average,
          p50: json.latency.p50,
          p99: json.latency.p99,
          non2xx: json.non2xx,
          errors: json.errors,
        });
      } catch {
        reject(new Error(`autocannon exited ${code}: ${err || out}`));
      }
    });
  });
}

/** The baseline server, in its own process. */
export async function startHello(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'bench/hello-server.ts'), String(port)],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => c.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`hello server exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function benchIngest(options: {
  engine: 'pglite' | 'postgres';
  databaseUrl: string | undefined;
  dataDir: string;
  mail: MailCapture;
  settings: string;
  log: (line: string) => void;
  /** Extra server environment, e.g. NODE_OPTIONS=--cpu-prof for a profile. */
  env?: Record<string, string>;
}): Promise<IngestResult> {
  const server = await startBenchServer({ ...options, env: options.env });
  const hello = await startHello();
  try {
    const owner = await signUpOwner(server.url, options.mail);
    const form = await createForm(server.url, owner);
    const bodyFile = join(options.dataDir, 'submission.json');
    await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
    // The same form with owner notifications off, for the on/off comparison in this same run.
    const quietForm = await createForm(server.url, owner);
    await api(server.url, owner.token, 'PUT', `/api/formNotifications/${quietForm._id}`, {
      notifyOwner: false,
      respondentCopy: false,
    });
    const quietBodyFile = join(options.dataDir, 'submission-quiet.json');
    await writeFile(quietBodyFile, JSON.stringify(submissionBody(quietForm)));
    const target = `${server.url}/api/forms/${owner.id}`;
    // One request first: the body must be valid, or the bench would measure 400s.
    const probe = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(submissionBody(form)),
    });
    if (probe.status !== 200)
      throw new Error(`the submission is refused: ${probe.status} ${await probe.text()}`);
    const post = ['-m', 'POST', '-H', 'content-type=application/json', '-i', bodyFile];
    const postQuiet = ['-m', 'POST', '-H', 'content-type=application/json', '-i', quietBodyFile];
    const rounds: IngestRound[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const h = await autocannon(hello.url);
      const q = await autocannon(target, postQuiet);
      const a = await autocannon(target, post);
      rounds.push({
        hello: h,
        app: a,
        ratio: a.reqPerSec / h.reqPerSec,
        quiet: q,
        notifyRatio: a.reqPerSec / q.reqPerSec,
      });
      options.log(
        `  ingest ${options.engine} round ${i + 1}: app ${a.reqPerSec.toFixed(0)} req/s, ` +
          `hello ${h.reqPerSec.toFixed(0)} req/s, ratio ${(a.reqPerSec / h.reqPerSec).toFixed(3)}; ` +
          `notifications off ${q.reqPerSec.toFixed(0)} req/s, on/off ${(a.reqPerSec / q.reqPerSec).toFixed(3)}`,
      );
    }
    const summary = await api<{ _id: string; count: number }[]>(
      server.url,
      owner.token,
      'GET',
      '/api/formSummary',
    );
    return {
      engine: options.engine,
      rounds,
      ratio: spread(rounds.map((r) => r.ratio)),
      notifyRatio: spread(rounds.map((r) => r.notifyRatio)),
      appReqPerSec: spread(rounds.map((r) => r.app.reqPerSec)),
      helloReqPerSec: spread(rounds.map((r) => r.hello.reqPerSec)),
      p50: spread(rounds.map((r) => r.app.p50)),
      p99: spread(rounds.map((r) => r.app.p99)),
      non2xx: rounds.reduce((n, r) => n + r.app.non2xx + r.app.errors + r.quiet.non2xx + r.quiet.errors, 0),
      rowsStored: summary
        .filter((s) => s._id === form._id || s._id === quietForm._id)
        .reduce((n, s) => n + s.count, 0),
      settings: options.settings,
    };
  } finally {
    await hello.stop();
    await server.stop();
  }
}
