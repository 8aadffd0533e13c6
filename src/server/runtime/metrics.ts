// GET /metrics in Prometheus's text format (prom-client), for an operator's Prometheus: off unless METRICS_TOKEN is
// set, and then only for a request bearing it. Request counts and latency by route, submissions and uploads
// accepted and refused, background job queues, the database pool, and the process (event-loop lag among them).
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { HttpError, notFound } from '../http/errors.ts';
import { metricsOfAllWorkers } from './cluster-metrics.ts';
import { isClusterWorker } from './cluster.ts';

/** Routes whose outcomes are counted on their own, by what they mean to a customer. */
export type CountedRoutes = { submissions: string[]; uploads: string[] };

/** What the queues hold: background jobs per queue and state (due or given up). */
const QUEUE_DEPTHS = `
  select 'mail' as queue, 'pending' as state, count(*)::int as n from mail_outbox
   where sent_at is null and failed_at is null
  union all
  select 'mail', 'failed', count(*)::int from mail_outbox where failed_at is not null
  union all
  select 'notifications', 'pending', count(*)::int from response_events where done_at is null
  union all
  select 'webhooks', 'pending', (select count(*)::int from webhook_deliveries where status = 'pending')
    -- Responses whose deliveries the sender has yet to make, one per webhook of their form.
    + (select coalesce(sum(cardinality(b.submission_ids) * (select count(*) from webhooks w where w.form_id = b.form_id)), 0)::int
         from webhook_batches b)
  union all
  select 'webhooks', 'failed', count(*)::int from webhook_deliveries where status = 'failed'`;

const sameToken = (given: string, expected: string) => {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function registerMetrics(
  app: FastifyInstance,
  options: { db: Database; token: string | undefined; counted: CountedRoutes },
): Promise<void> {
  const { db, token, counted } = options;
  if (!token) {
    // Unset: no such page, nothing counted, and prom-client not even loaded (a restart serves sooner).
    app.get('/metrics', async () => {
      throw notFound('Not found');
    });
    return;
  }
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'easyform_' });

  const requests = new Counter({
    name: 'easyform_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [register],
  });
  const latency = new Histogram({
    name: 'easyform_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  const submissions = new Counter({
    name: 'easyform_submissions_total',
    help: 'Customer submissions: accepted (stored) or refused (4xx/5xx)',
    labelNames: ['outcome'] as const,
    registers: [register],
  });
  const uploads = new Counter({
    name: 'easyform_uploads_total',
    help: 'Customer uploads: accepted (stored) or refused (4xx/5xx)',
    labelNames: ['outcome'] as const,
    registers: [register],
  });
  new Gauge({
    name: 'easyform_jobs',
    help: 'Background jobs by queue (mail, notifications, webhooks) and state (pending, failed)',
    labelNames: ['queue', 'state'] as const,
    registers: [register],
    // Every worker reads the same tables: merged, the figure is one of theirs, not their sum.
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const row of await db.query<{ queue: string; state: string; n: number }>(QUEUE_DEPTHS))
        this.set({ queue: row.queue, state: row.state }, row.n);
    },
  });
  new Gauge({
    name: 'easyform_db_pool_connections',
    help: 'PostgreSQL pool connections by state (total, idle, waiting); absent on the embedded engine',
    labelNames: ['state'] as const,
    registers: [register],
    collect() {
      const pool = db.poolStats();
      if (!pool) return;
      for (const [state, n] of Object.entries(pool)) this.set({ state }, n);
    },
  });

  const submitRoutes = new Set(counted.submissions);
  const uploadRoutes = new Set(counted.uploads);
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const key = `${request.method} ${route}`;
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    const outcome = reply.statusCode < 400 ? 'accepted' : 'refused';
    if (submitRoutes.has(key)) submissions.inc({ outcome });
    if (uploadRoutes.has(key)) uploads.inc({ outcome });
  });

  // With WORKERS > 1, whichever worker takes the scrape answers for all of them (cluster-metrics.ts).
  const text = isClusterWorker() ? metricsOfAllWorkers(register) : () => register.metrics();

  app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
    // Only for the bearer of the token, never cached.
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    if (!sameToken(given, token)) {
      reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, 'UNAUTHORIZED', 'The metrics need the token set as METRICS_TOKEN');
    }
    let body: string;
    try {
      body = await text();
    } catch (error) {
      throw new HttpError(
        503,
        'UNAVAILABLE',
        `The metrics of every worker could not be gathered: ${(error as Error).message}`,
        { 'retry-after': '5' },
      );
    }
    reply.header('content-type', register.contentType).header('cache-control', 'no-store');
    return body;
  });
}
