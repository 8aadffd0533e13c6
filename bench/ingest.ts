// Part 1: submission ingest against the production server, next to a bare Fastify hello-world in the same run.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Form } from '#common/forms.ts';
import { contactOf } from '../src/server/features/submissions/ingest/answers.ts';
import type { MailCapture } from '../src/server/mail/mail-capture.ts';
import { freePort } from '../src/server/testing/free-port.ts';
import { medianUse, startCpuProbe, type CpuUse } from './cpu-use.ts';
import { api, createForm, signUpOwner, storedAnswers, submissionBody, type BenchOwner } from './owner.ts';
import type { RawInsertJob, RawInsertResult } from './raw-insert.ts';
import { startReceiver, type Receiver } from './receiver.ts';
import { memoryOf, resetPeak, root, startBenchServer } from './server.ts';
import { DEEP, spread, type Spread } from './stats.ts';

export const CONNECTIONS = 10;
/** How long a freshly started server is left alone before its idle memory is read. */
const IDLE_SETTLE_MS = 3000;
export const DURATION_S = 10;
export const WARMUP_S = 2;
/**
 * An even number: the on/off pair runs in each order equally often. Six in a deep run, because on this 2-core machine
 * one load in four or five runs 20–30 % off the others for no reason of its own, and a median of four ratios moves
 * with it; two by default (a round takes about 95 s), so that the default run stays within ten minutes.
 */
export const ROUNDS = DEEP ? 6 : 2;
/** After each load on the form with a webhook, how long the bench waits for the sender to deliver the rest. */
const DRAIN_TIMEOUT_MS = 120_000;
const DRAIN_IDLE_MS = 15_000;

export type LoadResult = { reqPerSec: number; p50: number; p99: number; non2xx: number; errors: number };
/**
 * `app`: the load on a form with owner notifications on and one webhook; `quiet`: the same load on a form with
 * notifications off and no webhook; `onOffRatio`: app / quiet (issue 12).
 */
export type IngestRound = {
  hello: LoadResult;
  /** The no-database ceiling: the same route, schemas and answer validation, nothing stored. */
  ceiling: LoadResult;
  app: LoadResult;
  ratio: number;
  quiet: LoadResult;
  onOffRatio: number;
  /** quiet ÷ ceiling, and app (on) ÷ ceiling. */
  ceilingRatio: number;
  onCeilingRatio: number;
  /** PostgreSQL only: the raw insert loop, and quiet ÷ raw. */
  raw: RawInsertResult | null;
  rawRatio: number | null;
  /** The embedded engine only: the quiet load on a second server with EMBEDDED_SYNC=off, and quiet ÷ that. */
  unsynced: LoadResult | null;
  syncRatio: number | null;
  webhook: WebhookDrain;
  /** CPU per operation of the ceiling, the app (neither) and the raw loop (PostgreSQL), by process (issue 14). */
  cpu: { ceiling: CpuUse | null; quiet: CpuUse | null; raw: CpuUse | null };
};
/**
 * The webhook receiver's count against the hooked form's stored submissions (all rounds so far): when the load
 * ended, and after waiting for the sender to drain (bounded by DRAIN_TIMEOUT_MS).
 */
export type WebhookDrain = {
  /** The receiver's count before this round's load on the hooked form. */
  receivedBefore: number;
  stored: number;
  receivedAtLoadEnd: number;
  received: number;
  distinct: number;
  drainSeconds: number;
};
/**
 * Capacity (issue 14): the app and the raw insert loop each at several client counts, on PostgreSQL. A closed loop
 * of 10 clients measures latency, not capacity: each of the app's requests is an insert's commit plus HTTP,
 * validation and the wait for the batch being written, so at the same 10 clients it takes fewer per second however
 * well it batches, while more clients fill its batches and only crowd the raw loop's ten backends on two cores.
 * Each side's best rate whose p99 stays within SWEEP_P99_MS is compared (docs/decisions/013-group-commit.md).
 */
export const SWEEP_CONNECTIONS = [10, 20, 40] as const;
export const SWEEP_PASSES = 2;
export const SWEEP_P99_MS = 20;
export type SweepPoint = { connections: number; app: LoadResult; raw: RawInsertResult };
export type Capacity = {
  points: SweepPoint[];
  /** Per client count, the passes' mean rate and worst p99, for each side. */
  app: { connections: number; perSec: number; p99: number }[];
  raw: { connections: number; perSec: number; p99: number }[];
  /** The best mean rate within SWEEP_P99_MS, and at how many clients; null when no point kept it. */
  bestApp: { connections: number; perSec: number; p99: number } | null;
  bestRaw: { connections: number; perSec: number; p99: number } | null;
  ratio: number;
  /** The best mean rates over all client counts, whatever their p99. */
  peakRatio: number;
};

async function capacitySweep(run: {
  app: (connections: number) => Promise<LoadResult>;
  raw: (connections: number) => Promise<RawInsertResult>;
  log: (line: string) => void;
}): Promise<Capacity> {
  const points: SweepPoint[] = [];
  for (let pass = 0; pass < SWEEP_PASSES; pass++) {
    // Each pass in the other order, so that neither side always goes first.
    const order = pass % 2 === 0 ? [...SWEEP_CONNECTIONS] : [...SWEEP_CONNECTIONS].reverse();
    for (const connections of order) {
      const appFirst = pass % 2 === 0;
      const first = appFirst ? await run.app(connections) : await run.raw(connections);
      const second = appFirst ? await run.raw(connections) : await run.app(connections);
      const point = {
        connections,
        app: (appFirst ? first : second) as LoadResult,
        raw: (appFirst ? second : first) as RawInsertResult,
      };
      points.push(point);
      run.log(
        `  capacity pass ${pass + 1}, ${connections} clients: app ${point.app.reqPerSec.toFixed(0)} req/s ` +
          `(p99 ${point.app.p99} ms), raw insert loop ${point.raw.rowsPerSec.toFixed(0)} rows/s ` +
          `(p99 ${point.raw.p99.toFixed(1)} ms)`,
      );
    }
  }
  const side = (rate: (p: SweepPoint) => number, p99: (p: SweepPoint) => number) =>
    SWEEP_CONNECTIONS.map((connections) => {
      const at = points.filter((p) => p.connections === connections);
      return {
        connections,
        perSec: at.reduce((n, p) => n + rate(p), 0) / at.length,
        p99: Math.max(...at.map(p99)),
      };
    });
  const best = (rows: Capacity['app']) =>
    rows
      .filter((r) => r.p99 <= SWEEP_P99_MS)
      .reduce<Capacity['bestApp']>((b, r) => (b && b.perSec >= r.perSec ? b : r), null);
  const app = side(
    (p) => p.app.reqPerSec,
    (p) => p.app.p99,
  );
  const raw = side(
    (p) => p.raw.rowsPerSec,
    (p) => p.raw.p99,
  );
  const bestApp = best(app);
  const bestRaw = best(raw);
  return {
    points,
    app,
    raw,
    bestApp,
    bestRaw,
    ratio: bestApp && bestRaw ? bestApp.perSec / bestRaw.perSec : NaN,
    peakRatio: Math.max(...app.map((r) => r.perSec)) / Math.max(...raw.map((r) => r.perSec)),
  };
}

export type IngestResult = {
  engine: string;
  /** The server's resident memory settled after start, and its peak (VmHWM) from then through every load, bytes. */
  memory: { idle: number; peak: number };
  rounds: IngestRound[];
  ratio: Spread;
  ceilingReqPerSec: Spread;
  ceilingRatio: Spread;
  onCeilingRatio: Spread;
  raw: { rowsPerSec: Spread; p99: Spread; errors: number } | null;
  rawRatio: Spread | null;
  /** PostgreSQL: the no-database ceiling ÷ the raw loop, round by round: the most the app's ratio could be. */
  ceilingRawRatio: Spread | null;
  /** Medians over the rounds of the CPU each operation cost, by process; null off Linux. */
  cpu: { ceiling: CpuUse | null; quiet: CpuUse | null; raw: CpuUse | null };
  /** PostgreSQL: the app's and the raw loop's best rates within SWEEP_P99_MS over several client counts. */
  capacity: Capacity | null;
  /** What the durable embedded commit costs (ADR 007): the synced app ÷ the same app with EMBEDDED_SYNC=off. */
  unsynced: { reqPerSec: Spread; p99: Spread; ratio: Spread } | null;
  quietP50: Spread;
  quietP99: Spread;
  /** Ingest into a form with notifications and a webhook over ingest into one with neither (issue 12). */
  onOffRatio: Spread;
  appReqPerSec: Spread;
  quietReqPerSec: Spread;
  helloReqPerSec: Spread;
  p50: Spread;
  p99: Spread;
  non2xx: number;
  rowsStored: number;
  /** The last round's drain: every stored submission of the hooked form against what the receiver got. */
  webhook: WebhookDrain;
  settings: string;
};

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
  const stored = storedAnswers(form);
  const job: RawInsertJob = {
    databaseUrl,
    connections,
    warmupS: WARMUP_S,
    durationS: DURATION_S,
    row: {
      formId: form._id,
      ownerId: form.ownerIdAsStructureId,
      formTitle: form.formTitle,
      description: form.description,
      color: form.color,
      border: form.border,
      answers: stored,
      contact: contactOf(form, stored),
    },
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
  // The receiver is on 127.0.0.1, which webhooks refuse unless WEBHOOK_ALLOW_PRIVATE is set.
  const env = { WEBHOOK_ALLOW_PRIVATE: 'true', ...options.env };
  const server = await startBenchServer({ ...options, env });
  // Its memory as the machine sees it: settled a moment after start, then the most it holds under the loads below.
  await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
  const idleRss = memoryOf(server.pid).rss;
  resetPeak(server.pid);
  const hello = await startHello();
  const receiver = await startReceiver();
  // The embedded engine syncs its WAL before each answer (ADR 007): a second server on a data directory of its own,
  // with the syncs off, measures in the same rounds what they cost.
  const unsynced =
    options.engine === 'pglite' && (process.env.EMBEDDED_SYNC?.trim() || 'on') === 'on'
      ? await startBenchServer({
          ...options,
          dataDir: `${options.dataDir}-unsynced`,
          env: { ...env, EMBEDDED_SYNC: 'off' },
        })
      : null;
  let ceiling: { url: string; pid: number; stop: () => Promise<void> } | null = null;
  try {
    const owner = await signUpOwner(server.url, options.mail);
    // Owner notifications are on for a new form; the webhook is added here.
    const form = await createForm(server.url, owner);
    await api(server.url, owner.token, 'POST', `/api/formWebhooks/${form._id}`, { url: receiver.url });
    const bodyFile = join(options.dataDir, 'submission.json');
    await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
    // The same form with owner notifications off and no webhook, for the on/off comparison in this same run.
    const { form: quietForm, bodyFile: quietBodyFile } = await quietFormOf(
      server.url,
      owner,
      join(options.dataDir, 'submission-quiet.json'),
    );
    ceiling = await startCeiling(quietForm, options.dataDir);
    // The raw loop's rows go to a form of their own, so they never count as the app's.
    const rawForm = options.databaseUrl ? await createForm(server.url, owner) : null;
    const target = `${server.url}/api/forms/${owner.id}`;
    let unsyncedTarget: { url: string; post: string[] } | null = null;
    if (unsynced) {
      const other = await signUpOwner(unsynced.url, options.mail);
      const { bodyFile } = await quietFormOf(
        unsynced.url,
        other,
        join(options.dataDir, 'submission-unsynced.json'),
      );
      unsyncedTarget = {
        url: `${unsynced.url}/api/forms/${other.id}`,
        post: ['-m', 'POST', '-H', 'content-type=application/json', '-i', bodyFile],
      };
    }
    const ceilingTarget = `${ceiling.url}/api/forms/${owner.id}`;
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
    const settled = async () => {
      if (options.databaseUrl) await settle(options.databaseUrl);
    };
    const rounds: IngestRound[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const h = await autocannon(hello.url);
      // autocannon counts the rate over the measured seconds only; its process works through the warm-up too.
      const operations = (perSec: number) => perSec * (DURATION_S + WARMUP_S);
      const ceilingCpu = startCpuProbe({ pid: ceiling.pid, group: false });
      const c = await autocannon(ceilingTarget, postQuiet);
      const ceilingUse = ceilingCpu.end(operations(c.reqPerSec));
      // The on/off pair in turns: "on" after "neither" in one round, before it in the next, so that neither gains
      // from going first (fewer rows in the table, a fresher machine).
      const onFirst = i % 2 === 1;
      const on = async () => {
        await settled();
        const receivedBefore = receiver.received();
        const load = await autocannon(target, post);
        // Waited for before any other load, so that no backlog of deliveries slows it.
        return {
          load,
          webhook: { receivedBefore, ...(await drainWebhook(server.url, owner, form._id, receiver)) },
        };
      };
      const first = onFirst ? await on() : null;
      await settled();
      const quietCpu = startCpuProbe({ pid: server.pid, group: true });
      const q = await autocannon(target, postQuiet);
      const quietUse = quietCpu.end(operations(q.reqPerSec));
      const { load: a, webhook } = first ?? (await on());
      const u = unsyncedTarget ? await autocannon(unsyncedTarget.url, unsyncedTarget.post) : null;
      let rawUse: CpuUse | null = null;
      const raw =
        options.databaseUrl && rawForm
          ? await settled().then(async () => {
              const rawCpu = startCpuProbe(null);
              const loop = await rawInsertLoop(options.databaseUrl!, rawForm, options.dataDir);
              rawUse = rawCpu.end(operations(loop.rowsPerSec));
              return loop;
            })
          : null;
      rounds.push({
        hello: h,
        ceiling: c,
        app: a,
        ratio: a.reqPerSec / h.reqPerSec,
        quiet: q,
        onOffRatio: a.reqPerSec / q.reqPerSec,
        ceilingRatio: q.reqPerSec / c.reqPerSec,
        onCeilingRatio: a.reqPerSec / c.reqPerSec,
        raw,
        rawRatio: raw ? q.reqPerSec / raw.rowsPerSec : null,
        unsynced: u,
        syncRatio: u ? q.reqPerSec / u.reqPerSec : null,
        webhook,
        cpu: { ceiling: ceilingUse, quiet: quietUse, raw: rawUse },
      });
      options.log(
        `  ingest ${options.engine} round ${i + 1}: hello ${h.reqPerSec.toFixed(0)} req/s, ` +
          `no-database ceiling ${c.reqPerSec.toFixed(0)} req/s; app ${q.reqPerSec.toFixed(0)} req/s ` +
          `(p99 ${q.p99} ms), ${(q.reqPerSec / c.reqPerSec).toFixed(3)} of the ceiling` +
          (raw
            ? `; raw insert loop ${raw.rowsPerSec.toFixed(0)} rows/s (p99 ${raw.p99.toFixed(1)} ms), ` +
              `app/raw ${(q.reqPerSec / raw.rowsPerSec).toFixed(3)}`
            : '') +
          (u
            ? `; EMBEDDED_SYNC=off ${u.reqPerSec.toFixed(0)} req/s (p99 ${u.p99} ms), ` +
              `synced/unsynced ${(q.reqPerSec / u.reqPerSec).toFixed(3)}`
            : '') +
          `; notifications and webhook on ${a.reqPerSec.toFixed(0)} req/s, ` +
          `on/off ` +
          `${(a.reqPerSec / q.reqPerSec).toFixed(3)}; webhook deliveries ${webhook.receivedAtLoadEnd} at load end, ` +
          `${webhook.received} of ${webhook.stored} after ${webhook.drainSeconds.toFixed(1)} s more`,
      );
    }
    const capacity =
      options.databaseUrl && rawForm
        ? await capacitySweep({
            app: (connections) => settled().then(() => autocannon(target, postQuiet, connections)),
            raw: (connections) =>
              settled().then(() =>
                rawInsertLoop(options.databaseUrl!, rawForm, options.dataDir, connections),
              ),
            log: options.log,
          })
        : null;
    const memory = { idle: idleRss, peak: memoryOf(server.pid).peak };
    const summary = await storedCounts(server.url, owner);
    const last = rounds[rounds.length - 1];
    if (!last) throw new Error('no round ran');
    return {
      engine: options.engine,
      rounds,
      ratio: spread(rounds.map((r) => r.ratio)),
      ceilingReqPerSec: spread(rounds.map((r) => r.ceiling.reqPerSec)),
      ceilingRatio: spread(rounds.map((r) => r.ceilingRatio)),
      onCeilingRatio: spread(rounds.map((r) => r.onCeilingRatio)),
      raw: rawForm ? rawSummary(rounds) : null,
      capacity,
      rawRatio: rawForm ? spread(rounds.map((r) => r.rawRatio ?? NaN)) : null,
      ceilingRawRatio: rawForm
        ? spread(rounds.map((r) => (r.raw ? r.ceiling.reqPerSec / r.raw.rowsPerSec : NaN)))
        : null,
      cpu: {
        ceiling: medianUse(rounds.map((r) => r.cpu.ceiling)),
        quiet: medianUse(rounds.map((r) => r.cpu.quiet)),
        raw: rawForm ? medianUse(rounds.map((r) => r.cpu.raw)) : null,
      },
      unsynced: unsyncedTarget
        ? {
            reqPerSec: spread(rounds.map((r) => r.unsynced?.reqPerSec ?? NaN)),
            p99: spread(rounds.map((r) => r.unsynced?.p99 ?? NaN)),
            ratio: spread(rounds.map((r) => r.syncRatio ?? NaN)),
          }
        : null,
      quietP50: spread(rounds.map((r) => r.quiet.p50)),
      quietP99: spread(rounds.map((r) => r.quiet.p99)),
      onOffRatio: spread(rounds.map((r) => r.onOffRatio)),
      appReqPerSec: spread(rounds.map((r) => r.app.reqPerSec)),
      quietReqPerSec: spread(rounds.map((r) => r.quiet.reqPerSec)),
      helloReqPerSec: spread(rounds.map((r) => r.hello.reqPerSec)),
      p50: spread(rounds.map((r) => r.app.p50)),
      p99: spread(rounds.map((r) => r.app.p99)),
      non2xx: rounds.reduce(
        (n, r) =>
          n +
          r.app.non2xx +
          r.app.errors +
          r.quiet.non2xx +
          r.quiet.errors +
          r.ceiling.non2xx +
          r.ceiling.errors,
        (capacity?.points ?? []).reduce((n, pt) => n + pt.app.non2xx + pt.app.errors, 0),
      ),
      rowsStored: (summary.get(form._id) ?? 0) + (summary.get(quietForm._id) ?? 0),
      webhook: last.webhook,
      settings: options.settings,
      memory,
    };
  } finally {
    await ceiling?.stop();
    await unsynced?.stop();
    await hello.stop();
    await server.stop();
    await receiver.close();
  }
}

/** A bench form with owner notifications off and no webhook, and its submission body written to `bodyFile`. */
async function quietFormOf(url: string, owner: BenchOwner, bodyFile: string) {
  const form = await createForm(url, owner);
  await api(url, owner.token, 'PUT', `/api/formNotifications/${form._id}`, {
    notifyOwner: false,
    respondentCopy: false,
  });
  await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
  return { form, bodyFile };
}

function rawSummary(rounds: readonly IngestRound[]) {
  const raws = rounds.flatMap((r) => (r.raw ? [r.raw] : []));
  return {
    rowsPerSec: spread(raws.map((r) => r.rowsPerSec)),
    p99: spread(raws.map((r) => r.p99)),
    errors: raws.reduce((n, r) => n + r.errors, 0),
  };
}

async function storedCounts(url: string, owner: BenchOwner): Promise<Map<string, number>> {
  const summary = await api<{ _id: string; count: number }[]>(url, owner.token, 'GET', '/api/formSummary');
  return new Map(summary.map((s) => [s._id, s.count]));
}

/**
 * Before each load on PostgreSQL: a VACUUM and a CHECKPOINT, so that every load starts from the same database state.
 * Without it, whichever load came after the webhook drain (tens of thousands of delivery rows just updated) shared
 * the machine with autovacuum, and a load that a timed checkpoint fell into paid for full-page writes.
 */
async function settle(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench settle' });
  await client.connect();
  try {
    await client.query('vacuum');
    await client.query('checkpoint');
  } finally {
    await client.end();
  }
}

/** Waits (bounded) until the receiver has one delivery per stored submission of the hooked form. */
async function drainWebhook(
  url: string,
  owner: BenchOwner,
  formId: string,
  receiver: Receiver,
): Promise<Omit<WebhookDrain, 'receivedBefore'>> {
  const receivedAtLoadEnd = receiver.received();
  const started = performance.now();
  const storedNow = async () => (await storedCounts(url, owner)).get(formId) ?? 0;
  // Requests still in flight when autocannon stopped may commit after a first count: count again after the wait.
  let stored = await storedNow();
  let received = await receiver.waitFor(stored, { timeoutMs: DRAIN_TIMEOUT_MS, idleMs: DRAIN_IDLE_MS });
  for (let again = await storedNow(); again !== stored; again = await storedNow()) {
    stored = again;
    received = await receiver.waitFor(stored, { timeoutMs: DRAIN_TIMEOUT_MS, idleMs: DRAIN_IDLE_MS });
  }
  return {
    stored,
    receivedAtLoadEnd,
    received,
    distinct: receiver.distinct(),
    drainSeconds: (performance.now() - started) / 1000,
  };
}
