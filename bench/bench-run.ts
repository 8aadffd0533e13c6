// What each part of `npm run bench` is given by bench/run.ts: the report its rows go to, the raw figures kept in
// bench/results.json, the mail capture, a scratch directory maker and the log.
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import type { Report } from './report.ts';

export type BenchRun = {
  report: Report;
  raw: Record<string, unknown>;
  mail: MailCapture;
  dirOf: (name: string) => Promise<string>;
  log: (line: string) => void;
};

/** The engine a part runs on: the embedded one, or the PostgreSQL server BENCH_DATABASE_URL names. */
export type BenchEngine = { engine: 'pglite' | 'postgres'; databaseUrl: string | undefined };
