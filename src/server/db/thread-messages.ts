// What the server's thread and the embedded engine's thread say to each other (embedded-thread.ts,
// embedded-worker.ts). Rows and parameters cross as structured clones (a Buffer arrives as a Uint8Array, which the
// engine stores as bytea alike); errors cross as plain objects and are made errors again on arrival, with every field
// PostgreSQL gave them (`code`, `constraint`, `detail`…), which the structured clone of an Error would drop.
import { DatabaseInUseError } from './data-dir-lock.ts';

/** What the worker is started with (workerData). */
export type WorkerStart = { dir: string; lockRetries: number; sync: boolean };

/** A request; `tx` names the open transaction (the id of its `begin`) the statement belongs to. */
export type Request = { id: number } & (
  | { op: 'query'; sql: string; params: unknown[]; tx?: number; prepare?: string }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }
);

export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: SentError }
  | { id: 0; event: 'ready' }
  | { id: 0; event: 'open-failed'; error: SentError }
  | { id: 0; event: 'lock-wait'; message: string };

export type SentError = {
  name: string;
  message: string;
  stack: string | undefined;
  inUse: boolean;
  fields: Record<string, string | number | boolean | null>;
};

export function sendableError(error: unknown): SentError {
  // Not only Errors: the engine's file system throws its own ErrnoError objects (a `name` and an `errno`), which
  // start-up turns into a line about DATA_DIR (main.ts).
  if (typeof error !== 'object' || error === null)
    return { name: 'Error', message: String(error), stack: undefined, inUse: false, fields: {} };
  const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown };
  const fields: SentError['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    const kind = typeof value;
    if (value === null || kind === 'string' || kind === 'number' || kind === 'boolean')
      fields[key] = value as string | number | boolean | null;
  }
  return {
    name: typeof name === 'string' ? name : 'Error',
    message: typeof message === 'string' ? message : String(error),
    stack: typeof stack === 'string' ? stack : undefined,
    inUse: error instanceof DatabaseInUseError,
    fields,
  };
}

/** The error again, on this side: its class where callers test it, its fields, and where it was thrown. */
export function receivedError(sent: SentError): Error {
  const error = sent.inUse ? new DatabaseInUseError(sent.message) : new Error(sent.message);
  Object.assign(error, sent.fields);
  if (error.name !== sent.name) error.name = sent.name;
  if (sent.stack) error.stack = `${sent.stack}\n    (in the embedded database's thread)`;
  return error;
}
