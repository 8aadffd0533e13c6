// Part 10: how soon the embedded engine serves again after kill -9 (issue 15): the server started as the systemd unit
// starts it (node scripts/start.mjs), killed with its process group, started again on the same data directory.
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { api, createForm, signUpOwner, submissionBody } from './owner.ts';
import { startBenchServer, type BenchServer } from './server.ts';
import { spread, type Spread } from './stats.ts';

const RESTARTS = 5;
/** Submissions stored before the first kill, so the database has data and a WAL to recover. */
const STORED = 300;

export type RestartResult = {
  /** kill -9 to the next server answering /api/health 200, ms, each restart. */
  restartMs: number[];
  restart: Spread;
  /** The same server's first start on the directory (built, data present), ms. */
  firstStartMs: number;
  /** Responses the owner sees after the last restart, of those acknowledged before the kills. */
  responsesAfter: number;
  stored: number;
};

export async function benchRestart(options: { dataDir: string; mail: MailCapture }): Promise<RestartResult> {
  const start = () =>
    startBenchServer({ dataDir: options.dataDir, databaseUrl: undefined, mail: options.mail });
  let server: BenchServer = await start();
  try {
    const owner = await signUpOwner(server.url, options.mail);
    const form = await createForm(server.url, owner);
    const body = JSON.stringify(submissionBody(form));
    for (let i = 0; i < STORED; i += 10) {
      const batch = Array.from({ length: 10 }, () =>
        fetch(`${server.url}/api/forms/${owner.id}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        }).then((r) => {
          if (r.status !== 200) throw new Error(`a submission was refused: ${r.status}`);
        }),
      );
      await Promise.all(batch);
    }
    const firstStartMs = server.readyMs;
    const restartMs: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await server.crash();
      server = await start();
      restartMs.push(server.readyMs);
    }
    // The owner's session survives the restarts with the database.
    const list = await api<{ total: number }>(
      server.url,
      owner.token,
      'GET',
      `/api/formSubmissions/${form._id}?limit=1`,
    );
    return {
      restartMs,
      restart: spread(restartMs),
      firstStartMs,
      responsesAfter: list.total,
      stored: STORED,
    };
  } finally {
    await server.stop();
  }
}
