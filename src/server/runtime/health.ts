// Liveness and readiness (docs/decisions/039-boot-and-health.md). Liveness says the process serves: a supervisor that
// restarts on it must not restart every process while the database is away. Readiness says whether this process can
// take customers now (the database, the file storage, the disk, not draining): a load balancer sends only to those.
import { constants } from 'node:fs';
import { access, statfs } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { UNAVAILABLE_RETRY_SECONDS } from '../http/unavailable.ts';
import type { Storage } from '../storage/storage.ts';

/** How long one check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 5_000;
/**
 * How long a store that took its probe is believed to take writes: the route is public and each probe writes to the
 * store (a request to S3), so a flood of requests costs a probe every few seconds, not one each. A failed probe is
 * not reused: the next request probes again, so readiness comes back as soon as the store does.
 */
const STORE_PROBE_REUSE_MS = 5_000;
const MiB = 1024 * 1024;

const Engine = z.enum(['pglite', 'postgres']);
const Checks = z.object({
  database: z.enum(['ok', 'unreachable']),
  storage: z.enum(['ok', 'unreachable']),
  disk: z.enum(['ok', 'full', 'not writable']),
});
type Checks = z.infer<typeof Checks>;
const Ready = z.union([
  z.object({ ok: z.boolean(), db: Engine, ...Checks.shape }),
  z.object({ ok: z.literal(false), db: Engine, draining: z.literal(true) }),
]);

/** `promise`'s value, or `late` once CHECK_TIMEOUT_MS have passed without it; a rejection counts as `late`. */
async function within<T>(promise: Promise<T>, late: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise.catch(() => late), timeout]).finally(() => clearTimeout(timer));
}

/**
 * The disk under DATA_DIR (the embedded database, files on disk, images being re-encoded): full when less than one
 * largest upload and 64 MiB for the database is free to this user, or not writable (read-only, permissions).
 */
async function diskState(dataDir: string, uploadMaxBytes: number): Promise<Checks['disk']> {
  const writable = await access(dataDir, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!writable) return 'not writable';
  const space = await statfs(dataDir);
  return space.bavail * space.bsize < uploadMaxBytes + 64 * MiB ? 'full' : 'ok';
}

export type HealthDeps = { db: Database; storage: Storage; dataDir: string; uploadMaxBytes: number };

/**
 * The checks, side by side, each bounded by CHECK_TIMEOUT_MS; requests that come while a round runs share it, and a
 * store's good probe is reused for STORE_PROBE_REUSE_MS.
 */
function checker({ db, storage, dataDir, uploadMaxBytes }: HealthDeps): () => Promise<Checks> {
  let probe: { at: number; ok?: boolean; done: Promise<boolean> } | undefined;
  const storeTakesWrites = () => {
    if (probe && (probe.ok === undefined || (probe.ok && Date.now() - probe.at < STORE_PROBE_REUSE_MS)))
      return probe.done;
    const next: { at: number; ok?: boolean; done: Promise<boolean> } = {
      at: Date.now(),
      done: within(
        storage.probe(AbortSignal.timeout(CHECK_TIMEOUT_MS)).then(() => true),
        false,
      ),
    };
    void next.done.then((ok) => (next.ok = ok));
    probe = next;
    return next.done;
  };
  const check = async (): Promise<Checks> => {
    const [database, stored, disk] = await Promise.all([
      // The embedded engine is this process's own; PostgreSQL may be away (restarting, unreachable).
      db.kind === 'pglite'
        ? true
        : within(
            db.query('select 1').then(() => true),
            false,
          ),
      storeTakesWrites(),
      within(diskState(dataDir, uploadMaxBytes), 'not writable' as const),
    ]);
    return { database: database ? 'ok' : 'unreachable', storage: stored ? 'ok' : 'unreachable', disk };
  };
  let round: Promise<Checks> | undefined;
  return () => (round ??= check().finally(() => (round = undefined)));
}

/**
 * GET /api/health/live, GET /api/health/ready, and GET /api/health (the readiness answer, the body it always had
 * kept: `ok`, `db`, `database: "unreachable"`, `draining: true`); and `beginDrain`, after which readiness answers
 * 503 and every answer closes its connection.
 */
export function registerHealth(app: FastifyInstance, deps: HealthDeps): void {
  let draining = false;
  app.decorate('beginDrain', () => {
    draining = true;
  });
  // Every answer from then on closes its connection: a keep-alive connection would otherwise go on carrying
  // requests to a process about to stop listening, and hold the shutdown until the client's own idle timeout.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (draining) reply.header('connection', 'close');
    return payload;
  });

  const checks = checker(deps);
  const api = app.withTypeProvider<ZodTypeProvider>();
  const ready = async () => {
    const db = deps.db.kind;
    if (draining) return { ok: false as const, db, draining: true as const };
    const state = await checks();
    const ok = state.database === 'ok' && state.storage === 'ok' && state.disk === 'ok';
    return { ok, db, ...state };
  };
  const readiness = {
    // What failed is named, not why: that is the log's (the route is public).
    schema: { response: { 200: Ready, 503: Ready } },
    handler: async (_request: unknown, reply: FastifyReply) => {
      const body = await ready();
      if (!body.ok) {
        reply.code(503);
        if (!('draining' in body)) reply.header('retry-after', String(UNAVAILABLE_RETRY_SECONDS));
      }
      return body;
    },
  };
  api.get('/api/health', readiness);
  api.get('/api/health/ready', readiness);
  api.get(
    '/api/health/live',
    { schema: { response: { 200: z.object({ ok: z.literal(true) }) } } },
    async () => ({ ok: true as const }),
  );
}
