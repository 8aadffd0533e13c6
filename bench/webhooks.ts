// Part 6: the webhook sender's drain rate. A backlog of due deliveries (a receiver back after an outage) is sent to a
// receiver on 127.0.0.1 that answers 200 at once; the rate is taken between the first and the last request it gets.
import { openDatabase } from '../src/server/db/database.ts';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';
import { api, createForm, signUpOwner } from './owner.ts';
import { startReceiver } from './receiver.ts';
import { seedSubmissions, seedWebhookDeliveries } from './seed.ts';
import { startBenchServer } from './server.ts';

export const BACKLOG = 5_000;
const DRAIN_TIMEOUT_MS = 300_000;
const DRAIN_IDLE_MS = 20_000;

export type WebhooksResult = {
  engine: string;
  /** Deliveries due when the server started. */
  expected: number;
  received: number;
  distinct: number;
  /** From the first to the last request the receiver got. */
  drainSeconds: number;
  deliveriesPerSec: number;
  /** Deliveries by status, and attempts logged, read from the database after the server stopped. */
  statuses: Record<string, number>;
  attempts: number;
};

export async function benchWebhooks(options: {
  engine: 'pglite' | 'postgres';
  databaseUrl: string | undefined;
  dataDir: string;
  mail: MailCapture;
  log: (line: string) => void;
}): Promise<WebhooksResult> {
  const { engine, databaseUrl, dataDir, log } = options;
  // The receiver is on 127.0.0.1, which webhooks refuse unless WEBHOOK_ALLOW_PRIVATE is set.
  const start = () => startBenchServer({ ...options, env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  const receiver = await startReceiver();
  try {
    let server = await start();
    const owner = await signUpOwner(server.url, options.mail);
    const form = await createForm(server.url, owner);
    await api(server.url, owner.token, 'POST', `/api/formWebhooks/${form._id}`, { url: receiver.url });
    await server.stop();

    // Written with SQL while no server runs, so that the whole backlog is due at once when the sender starts.
    await seedSubmissions({ databaseUrl, dataDir, form, from: 0, to: BACKLOG });
    const due = await seedWebhookDeliveries({ databaseUrl, dataDir, formId: form._id });
    log(`  ${engine}: ${due.toLocaleString('en-US')} deliveries due to ${receiver.url}`);

    // buildApp nudges the sender as it starts (deliveries left due by a previous run go out at once): the drain
    // begins while the server starts.
    server = await start();
    try {
      await receiver.waitFor(due, { timeoutMs: DRAIN_TIMEOUT_MS, idleMs: DRAIN_IDLE_MS });
    } finally {
      await server.stop();
    }
    const received = receiver.received();
    const drainSeconds = ((receiver.lastAt() ?? NaN) - (receiver.firstAt() ?? NaN)) / 1000;
    const db = await openDatabase({ databaseUrl, dataDir });
    try {
      const rows = await db.query<{ status: string; n: number }>(
        `select d.status, count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id
          where w.form_id = $1 group by d.status`,
        [form._id],
      );
      const [attempts] = await db.query<{ n: number }>(
        `select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
           join webhooks w on w.id = d.webhook_id where w.form_id = $1`,
        [form._id],
      );
      return {
        engine,
        expected: due,
        received,
        distinct: receiver.distinct(),
        drainSeconds,
        // Requests after the first, over the time since it: the rate at which the backlog went out.
        deliveriesPerSec: (received - 1) / drainSeconds,
        statuses: Object.fromEntries(rows.map((r) => [r.status, r.n])),
        attempts: attempts?.n ?? 0,
      };
    } finally {
      await db.close();
    }
  } finally {
    await receiver.close();
  }
}
