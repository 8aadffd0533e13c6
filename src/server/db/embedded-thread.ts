// The embedded engine of a file-backed data directory, run on a thread of its own (embedded-worker.ts) so that its
// statements no longer stall every request on the server's thread
// (docs/decisions/038-embedded-engine-on-its-own-thread.md). This side is a `Database` that sends messages.
import { Worker } from 'node:worker_threads';
import type { Database, Queryable, Row } from './queryable.ts';
import { receivedError, type Reply, type Request, type WorkerStart } from './thread-messages.ts';

/** Distributes a request's fields over each member of the union, so that `Omit` keeps them apart. */
type Outgoing = Request extends infer R ? (R extends Request ? Omit<R, 'id'> : never) : never;

/**
 * Sources run the TypeScript file (tsx, the test runner, Node's type stripping); the server bundle (scripts/start.mjs)
 * holds the worker as `embedded-worker.js` beside the code that starts it.
 */
const workerFile = () =>
  new URL(import.meta.url.endsWith('.ts') ? './embedded-worker.ts' : './embedded-worker.js', import.meta.url);

/** Options that load modules (a TypeScript loader such as tsx), which the worker needs to load its own file. */
const LOADING = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
]);

/**
 * A worker inherits the process's options, but refuses a file when the process runs a script given with `--eval`
 * (`--input-type`): then it gets only the options that load modules. Undefined: inherit them all.
 */
export function workerOptions(execArgv: readonly string[]): string[] | undefined {
  if (!execArgv.some((option) => option.startsWith('--input-type'))) return undefined;
  const kept: string[] = [];
  execArgv.forEach((option, i) => {
    const name = option.split('=')[0] ?? option;
    if (!LOADING.has(name)) return;
    kept.push(option);
    const value = execArgv[i + 1];
    if (!option.includes('=') && value !== undefined) kept.push(value);
  });
  return kept;
}

export async function openEmbeddedThread(
  options: WorkerStart & { onWait: (message: string) => void; onLost: (error: Error) => void },
) {
  const { onWait, onLost, ...start } = options;
  const worker = new Worker(workerFile(), { workerData: start, execArgv: workerOptions(process.execArgv) });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  /** Set once the thread is gone, or closed: every later call fails with it at once. */
  let gone: Error | null = null;
  /** Open and not being closed: a stop now is a loss, told to onLost. */
  let serving = false;
  // A thread with nothing asked of it does not keep the process alive, as the engine on this thread did not.
  const holdWhileBusy = () => (pending.size > 0 ? worker.ref() : worker.unref());

  const opened = new Promise<void>((resolve, reject) => {
    const fail = (error: Error) => {
      if (serving && !gone) onLost(error);
      gone ??= error;
      reject(error);
      for (const waiting of pending.values()) waiting.reject(error);
      pending.clear();
      holdWhileBusy();
    };
    worker.on('message', (reply: Reply) => {
      if ('event' in reply) {
        if (reply.event === 'ready') resolve();
        else if (reply.event === 'lock-wait') onWait(reply.message);
        else fail(receivedError(reply.error));
        return;
      }
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      holdWhileBusy();
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(receivedError(reply.error));
    });
    worker.on('error', (error) =>
      fail(new Error(`The embedded database's thread failed: ${error.message}`, { cause: error })),
    );
    worker.on('exit', (code) =>
      fail(new Error(`The embedded database's thread stopped (exit code ${code}); restart the server.`)),
    );
  });

  const call = (request: Outgoing): Promise<unknown> => {
    if (gone) return Promise.reject(gone);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      holdWhileBusy();
      worker.postMessage({ ...request, id });
    });
  };

  try {
    await opened;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  opened.catch(() => undefined); // a later death is told to the calls and to onLost, not as an unhandled rejection
  serving = true;
  holdWhileBusy();

  const on = (tx?: number): Queryable => ({
    async query<T extends Row>(sql: string, params: readonly unknown[] = [], options?: { prepare?: string }) {
      return (await call({ op: 'query', sql, params: [...params], tx, prepare: options?.prepare })) as T[];
    },
    async exec(sql: string) {
      await call({ op: 'exec', sql, tx });
    },
  });

  const database: Database = {
    kind: 'pglite',
    ...on(),
    poolStats: () => null,
    async transaction(work) {
      const tx = (await call({ op: 'begin' })) as number;
      let value;
      try {
        value = await work(on(tx));
      } catch (error) {
        await call({ op: 'end', tx, commit: false }).catch(() => undefined);
        throw error;
      }
      await call({ op: 'end', tx, commit: true });
      return value;
    },
    async close() {
      serving = false;
      try {
        await call({ op: 'close' });
      } finally {
        gone ??= new Error('The embedded database is closed.');
        await worker.terminate();
      }
    },
  };
  return database;
}
