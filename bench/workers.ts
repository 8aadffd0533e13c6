// Part 7 (PostgreSQL): the same ingest load on one server process and on WORKERS=2 (node:cluster) over the same
// database, in alternating rounds. Reported, no target: on 2 cores the second process competes with the load generator
// and PostgreSQL for the same CPU.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { ROUNDS } from './ingest.ts';
import { autocannon, type LoadResult } from './load.ts';
import { api, createForm, signUpOwner, submissionBody } from './owner.ts';
import { startBenchServer } from './server.ts';
import { spread, type Spread } from './stats.ts';

export type WorkersResult = {
  rounds: { one: LoadResult; two: LoadResult; ratio: number }[];
  one: Spread;
  two: Spread;
  ratio: Spread;
  p99One: Spread;
  p99Two: Spread;
  non2xx: number;
};

export async function benchWorkers(options: {
  databaseUrl: string;
  dataDir: string;
  mail: MailCapture;
  log: (line: string) => void;
}): Promise<WorkersResult> {
  for (const dir of ['one', 'two']) await mkdir(join(options.dataDir, dir), { recursive: true });
  const one = await startBenchServer({ ...options, dataDir: join(options.dataDir, 'one') });
  let two: Awaited<ReturnType<typeof startBenchServer>> | null = null;
  try {
    two = await startBenchServer({
      ...options,
      dataDir: join(options.dataDir, 'two'),
      env: { WORKERS: '2' },
    });
    const owner = await signUpOwner(one.url, options.mail);
    // The load of part 1's "neither" side: notifications off, no webhook.
    const form = await createForm(one.url, owner);
    await api(one.url, owner.token, 'PUT', `/api/formNotifications/${form._id}`, {
      notifyOwner: false,
      respondentCopy: false,
    });
    const bodyFile = join(options.dataDir, 'submission-workers.json');
    await writeFile(bodyFile, JSON.stringify(submissionBody(form)));
    const post = ['-m', 'POST', '-H', 'content-type=application/json', '-i', bodyFile];
    const rounds: WorkersResult['rounds'] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const a = await autocannon(`${one.url}/api/forms/${owner.id}`, post);
      const b = await autocannon(`${two.url}/api/forms/${owner.id}`, post);
      rounds.push({ one: a, two: b, ratio: b.reqPerSec / a.reqPerSec });
      options.log(
        `  workers round ${i + 1}: 1 process ${a.reqPerSec.toFixed(0)} req/s (p99 ${a.p99} ms), ` +
          `WORKERS=2 ${b.reqPerSec.toFixed(0)} req/s (p99 ${b.p99} ms), ratio ${(b.reqPerSec / a.reqPerSec).toFixed(3)}`,
      );
    }
    return {
      rounds,
      one: spread(rounds.map((r) => r.one.reqPerSec)),
      two: spread(rounds.map((r) => r.two.reqPerSec)),
      ratio: spread(rounds.map((r) => r.ratio)),
      p99One: spread(rounds.map((r) => r.one.p99)),
      p99Two: spread(rounds.map((r) => r.two.p99)),
      non2xx: rounds.reduce((n, r) => n + r.one.non2xx + r.one.errors + r.two.non2xx + r.two.errors, 0),
    };
  } finally {
    await two?.stop();
    await one.stop();
  }
}
