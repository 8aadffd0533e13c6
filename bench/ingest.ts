// Part 1: submission ingest against the production server, next to a bare Fastify hello-world in the same run.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { capacitySweep } from './capacity.ts';
import { startCpuProbe, type CpuUse } from './cpu-use.ts';
import { summarise, type IngestResult, type IngestRound } from './ingest-result.ts';
import { drainWebhook, quietFormOf, settle, storedCounts } from './ingest-steps.ts';
import { autocannon, DURATION_S, rawInsertLoop, startCeiling, startHello, WARMUP_S } from './load.ts';
import { api, createForm, signUpOwner, submissionBody } from './owner.ts';
import { startReceiver } from './receiver.ts';
import { memoryOf, resetPeak, startBenchServer } from './server.ts';
import { DEEP } from './stats.ts';

/** How long a freshly started server is left alone before its idle memory is read. */
const IDLE_SETTLE_MS = 3000;
/**
 * An even number: the on/off pair runs in each order equally often. Six in a deep run, because on this 2-core machine
 * one load in four or five runs 20–30 % off the others for no reason of its own, and a median of four ratios moves
 * with it; two by default (a round takes about 95 s), so that the default run stays within ten minutes.
 */
export const ROUNDS = DEEP ? 6 : 2;

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
    return summarise(rounds, {
      engine: options.engine,
      raw: rawForm !== null,
      unsynced: unsyncedTarget !== null,
      capacity,
      memory,
      rowsStored: (summary.get(form._id) ?? 0) + (summary.get(quietForm._id) ?? 0),
      settings: options.settings,
    });
  } finally {
    await ceiling?.stop();
    await unsynced?.stop();
    await hello.stop();
    await server.stop();
    await receiver.close();
  }
}
