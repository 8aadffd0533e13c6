// The embedded engine's own thread (docs/decisions/038-embedded-engine-on-its-own-thread.md): it takes the data
// directory's lock, watches its files for durability and runs PGlite, answering the server's thread
// (embedded-thread.ts). Loaded from the sources (tsx, the test runner, Node's type stripping) and, in production, from
// the server bundle, where scripts/start.mjs builds it as an entry point of its own beside main.js.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { realDisk } from './durable-dir.ts';
import { openPglite } from './embedded-engine.ts';
import type { Database, Queryable } from './queryable.ts';
import { sendableError, type Reply, type Request, type WorkerStart } from './thread-messages.ts';

if (!parentPort) throw new Error('embedded-worker.ts runs as a worker thread');
const port = parentPort;
const start = workerData as WorkerStart;
const send = (reply: Reply) => port.postMessage(reply);

/** Why a transaction is rolled back on request: its work failed on the server's thread. */
const ROLLBACK = Symbol('rollback');

type OpenTransaction = { tx: Queryable; finish(commit: boolean): void; done: Promise<void> };

const onWait = (message: string) => send({ id: 0, event: 'lock-wait', message });
// A directory without a database yet: opening it runs initdb first (docs/decisions/037-memory-of-a-small-server.md).
const fresh = !existsSync(join(start.dir, 'PG_VERSION'));
const db = await openPglite(start.dir, start.lockRetries, onWait, start.sync ? realDisk : undefined).catch(
  (error: unknown) => {
    // Said once, then the thread ends: the server's thread fails the open with this error.
    send({ id: 0, event: 'open-failed', error: sendableError(error) });
    port.close();
    return null;
  },
);

if (db) {
  if (fresh) collectGarbage();
  serve(db);
}

/**
 * A full collection of this thread's heap, now. PGlite runs initdb as a WebAssembly instance of its own, about 300 MiB,
 * garbage once the database exists; this thread allocates little JavaScript, so without it no full collection came
 * for it until some ten seconds after the server served. `gc` is exposed only to a context made for the call.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  try {
    (runInNewContext('gc') as () => void)();
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

function serve(db: Database): void {
  const transactions = new Map<number, OpenTransaction>();

  /**
   * Opens a transaction and holds it open across messages: its statements arrive one by one, named by its id, until
   * the server's thread ends it. Other statements meanwhile wait for it, as PGlite's own lock makes them.
   */
  function begin(id: number): Promise<number> {
    return new Promise<number>((begun, failed) => {
      let entered = false;
      const done = db.transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            entered = true;
            transactions.set(id, {
              tx,
              finish: (ok) => (ok ? commit() : rollback(ROLLBACK)),
              done: done.catch((error: unknown) => {
                if (error !== ROLLBACK) throw error;
              }),
            });
            begun(id);
          }),
      );
      done.catch((error: unknown) => {
        if (!entered) failed(error);
      });
    });
  }

  async function end(txId: number, commit: boolean): Promise<void> {
    const open = transactions.get(txId);
    if (!open) throw new Error(`no open transaction ${txId}`);
    transactions.delete(txId);
    open.finish(commit);
    await open.done;
  }

  function target(tx: number | undefined): Queryable {
    if (tx === undefined) return db;
    const open = transactions.get(tx);
    if (!open) throw new Error(`no open transaction ${tx}`);
    return open.tx;
  }

  async function handle(request: Request): Promise<unknown> {
    switch (request.op) {
      case 'query':
        return target(request.tx).query(request.sql, request.params, { prepare: request.prepare });
      case 'exec':
        return target(request.tx).exec(request.sql);
      case 'begin':
        return begin(request.id);
      case 'end':
        return end(request.tx, request.commit);
      case 'close':
        await db.close();
        return undefined;
    }
  }

  port.on('message', (request: Request) => {
    handle(request).then(
      (value) => send({ id: request.id, ok: true, value }),
      (error: unknown) => send({ id: request.id, ok: false, error: sendableError(error) }),
    );
  });
  send({ id: 0, event: 'ready' });
}
