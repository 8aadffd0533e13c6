// The loads the ingest part runs, each in a process of its own: autocannon against a URL, the hello-world reference,
// the no-database ceiling and the raw insert loop.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Form } from '#common/forms.ts';
import { formColumns } from '../src/server/features/submissions/ingest/accepted-row.ts';
import { freePort } from '../src/server/testing/free-port.ts';
import { storedAnswers } from './owner.ts';
import type { RawInsertJob, RawInsertResult } from './raw-insert.ts';
import { root } from './server.ts';

export const CONNECTIONS = 10;
export const DURATION_S = 10;
export const WARMUP_S = 2;

export type LoadResult = { reqPerSec: number; p50: number; p99: number; non2xx: number; errors: number };

type AutocannonJson = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
};

/** autocannon in a process of its own, so the load generator does not share the event loop with anything. */
export function autocannon(
  url: string,
  extra: string[] = [],
  connections = CONNECTIONS,
): Promise<LoadResult> {
  const bin = join(root, 'node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(connections), '-d', String(DURATION_S)];
  args.push('-W', '[', '-c', String(connections), '-d', String(WARMUP_S), ']', ...extra, url);
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

/** A bench-only server in its own process (`script` prints "listening" once it is), on a free port. */
async function startSideServer(
  script: string,
  args: string[] = [],
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script), String(port), ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => c.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The hello-world reference, in its own process. */
export const startHello = async () => {
  const server = await startSideServer('bench/hello-server.ts');
  return { ...server, url: `${server.url}/` };
};

/** The no-database ceiling (bench/ceiling-server.ts) serving `form`, in its own process. */
export async function startCeiling(form: Form, dir: string) {
  const formFile = join(dir, 'ceiling-form.json');
  await writeFile(formFile, JSON.stringify(form));
  return startSideServer('bench/ceiling-server.ts', [formFile]);
}

/** The raw insert loop (bench/raw-insert.ts) in its own process, into `form`'s submissions. */
export async function rawInsertLoop(
  databaseUrl: string,
  form: Form,
  dir: string,
  connections = CONNECTIONS,
): Promise<RawInsertResult> {
  const job: RawInsertJob = {
    databaseUrl,
    connections,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    row: formColumns(form, storedAnswers(form)),
  };
  const jobFile = join(dir, 'raw-insert.json');
  await writeFile(jobFile, JSON.stringify(job));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench/raw-insert.ts'), jobFile], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  try {
    return JSON.parse(out.trim().split('\n').pop() ?? '') as RawInsertResult;
  } catch {
    throw new Error(`raw insert loop exited ${code}: ${err || out}`);
  }
}
