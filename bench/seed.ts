// Seeds submissions with SQL, through the app's own database code, while no server holds the database.
import type { Form } from '#common/forms.ts';
import { openDatabase } from '../src/server/db/database.ts';
import type { StoredAnswer } from '../src/server/features/submissions/repository.ts';
import { storedAnswers } from './owner.ts';

/**
 * Adds submissions `from + 1 … to` to the form in one `insert … select … from generate_series`, one second apart
 * and in order, each with its own name and email, and keeps forms.response_count/latest_response_at and the
 * Results counters (migration 010's recount) in step as the app's own insert does.
 */
export async function seedSubmissions(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  form: Form;
  from: number;
  to: number;
  /** The stored answers each row starts from (its first two, text, get the row's own name and email). */
  answers?: readonly StoredAnswer[];
}): Promise<number> {
  const started = performance.now();
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    await db.transaction(async (tx) => {
      await tx.query(
        `insert into submissions (form_id, owner_id, created_at, form_title, description, color, border, answers, contact)
         select f.id, f.owner_id, timestamptz '2025-01-01 00:00:00+00' + make_interval(secs => g),
                f.title, f.description, f.color, f.border,
                jsonb_set(jsonb_set($2::jsonb, '{0,value}', to_jsonb('Customer ' || g)),
                          '{1,value}', to_jsonb('customer' || g || '@example.com')),
                'Customer ' || g || ' · customer' || g || '@example.com'
           from forms f, generate_series($3::int, $4::int) as g
          where f.id = $1`,
        [
          options.form._id,
          JSON.stringify(options.answers ?? storedAnswers(options.form)),
          options.from + 1,
          options.to,
        ],
      );
      await tx.query(
        `update forms set response_count = (select count(*) from submissions where form_id = $1),
                latest_response_at = (select max(created_at) from submissions where form_id = $1)
          where id = $1`,
        [options.form._id],
      );
      await tx.query('select rebuild_form_results($1)', [options.form._id]);
    });
    await db.query('analyze submissions');
  } finally {
    await db.close();
  }
  return performance.now() - started;
}

/** fsync and synchronous_commit of the engine, as the server runs it. */
export async function durabilitySettings(databaseUrl: string | undefined, dataDir: string): Promise<string> {
  const db = await openDatabase({ databaseUrl, dataDir });
  try {
    const [fsync] = await db.query<{ fsync: string }>('show fsync');
    const [sync] = await db.query<{ synchronous_commit: string }>('show synchronous_commit');
    return `fsync=${fsync?.fsync ?? '?'} synchronous_commit=${sync?.synchronous_commit ?? '?'}`;
  } finally {
    await db.close();
  }
}

/**
 * Gives every submission of the form one pending, due delivery per webhook of the form: the rows the insert's
 * `hooked` CTE writes (src/server/features/submissions/repository.ts), for submissions seeded with SQL. Returns how many.
 */
export async function seedWebhookDeliveries(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  formId: string;
}): Promise<number> {
  const db = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: options.dataDir });
  try {
    const rows = await db.query(
      `insert into webhook_deliveries (webhook_id, submission_id)
       select w.id, s.id from submissions s join webhooks w on w.form_id = s.form_id
        where s.form_id = $1
       returning id`,
      [options.formId],
    );
    await db.query('analyze webhook_deliveries');
    return rows.length;
  } finally {
    await db.close();
  }
}
