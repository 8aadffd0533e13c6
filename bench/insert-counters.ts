// The cost of the Results counters (issue 12) on the insert itself, away from HTTP noise: batches of 64 written by
// `insertSubmissions` (which adds them to the counters) and by the same statement without the counter CTEs, taking
// turns on one database so that load from elsewhere falls on both alike.
// `node --import tsx bench/insert-counters.ts [rounds]`; on PostgreSQL with TEST_DATABASE_URL set.
import { randomUUID } from 'node:crypto';
import type { Form } from '#common/forms.ts';
import type { Queryable } from '../src/server/db/database.ts';
import {
  ADD_BATCH,
  batchParameter,
  insertSubmissions,
  type NewSubmission,
} from '../src/server/features/submissions/insert-submissions.ts';
import { createTestApp, signUpOwner } from '../src/server/testing/test-app.ts';
import { storedAnswers, TEN_QUESTIONS } from './owner.ts';

const BATCH = 64;
const ROUNDS = Number(process.argv[2] ?? 150);

/** The insert as it was before migration 010: the batch and the forms' response counts only. */
const insertWithoutCounters = (db: Queryable, rows: readonly NewSubmission[]) =>
  db.query(`with ${ADD_BATCH} select id from added`, [batchParameter(rows)]);

const t = await createTestApp();
try {
  const owner = await signUpOwner(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/importForm',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: TEN_QUESTIONS,
  });
  const form = res.json<Form>();
  const answers = storedAnswers(form);
  const batch = (): NewSubmission[] =>
    Array.from({ length: BATCH }, () => ({
      id: randomUUID(),
      formId: form._id,
      ownerId: owner.id,
      formTitle: form.formTitle,
      description: form.description,
      color: form.color,
      border: form.border,
      answers,
      contact: 'Priya',
      idempotencyKey: null,
      formVersion: null,
    }));
  const times = { with: [] as number[], without: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const kind of i % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const)) {
      const rows = batch();
      const started = performance.now();
      if (kind === 'with') await insertSubmissions(t.app.db, rows);
      else await insertWithoutCounters(t.app.db, rows);
      times[kind].push(performance.now() - started);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
  const w = median(times.with);
  const wo = median(times.without);
  console.log(
    `${t.app.db.kind}: ${ROUNDS} batches of ${BATCH} each way; median ms per batch: without counters ${wo.toFixed(2)}, with ${w.toFixed(2)} (${((w / wo - 1) * 100).toFixed(0)} %); per submission ${(wo / BATCH).toFixed(3)} → ${(w / BATCH).toFixed(3)} ms`,
  );
} finally {
  await t.close();
}
