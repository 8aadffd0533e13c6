// The raw insert loop (issue 14): N connections inserting submission rows straight into PostgreSQL with `pg`, one
// autocommitted insert a row, no HTTP, no validation, no counters. The reference the app's durable ingest is held
// to. Run in a process of its own, like autocannon: node --import tsx bench/raw-insert.ts <job.json>; prints JSON.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { StoredAnswer } from '../src/server/features/submissions/repository.ts';

export type RawInsertJob = {
  databaseUrl: string;
  connections: number;
  warmupS: number;
  durationS: number;
  /** The columns insertSubmissions writes for one row, but the id (fresh per row) and the key (null, as the bench's). */
  row: {
    formId: string;
    ownerId: string;
    formTitle: string;
    description: string;
    color: string;
    border: string;
    answers: StoredAnswer[];
    contact: string;
  };
};
export type RawInsertResult = { rowsPerSec: number; rows: number; p50: number; p99: number; errors: number };

const INSERT = `insert into submissions
  (id, form_id, owner_id, form_title, description, color, border, answers, contact, idempotency_key)
  values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, null)`;

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function run(job: RawInsertJob): Promise<RawInsertResult> {
  const { row } = job;
  const answers = JSON.stringify(row.answers);
  const fixed = [row.formId, row.ownerId, row.formTitle, row.description, row.color, row.border, answers];
  const clients = await Promise.all(
    Array.from({ length: job.connections }, async () => {
      const client = new pg.Client({
        connectionString: job.databaseUrl,
        application_name: 'bench raw insert',
      });
      await client.connect();
      return client;
    }),
  );
  const warmEnd = performance.now() + job.warmupS * 1000;
  const end = warmEnd + job.durationS * 1000;
  const latencies: number[] = [];
  let errors = 0;
  await Promise.all(
    clients.map(async (client) => {
      for (let now = performance.now(); now < end; now = performance.now()) {
        try {
          await client.query(INSERT, [randomUUID(), ...fixed, row.contact]);
        } catch {
          errors++;
        }
        // Counted when it was sent in the measured window, as autocannon counts requests.
        if (now >= warmEnd) latencies.push(performance.now() - now);
      }
    }),
  );
  await Promise.all(clients.map((c) => c.end()));
  latencies.sort((a, b) => a - b);
  return {
    rowsPerSec: latencies.length / job.durationS,
    rows: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

if (process.argv[2]) {
  const job = JSON.parse(await readFile(process.argv[2], 'utf8')) as RawInsertJob;
  console.log(JSON.stringify(await run(job)));
}
