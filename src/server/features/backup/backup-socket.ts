import { once } from 'node:events';
import { chmod, rm } from 'node:fs/promises';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Database } from '../../db/database.ts';
import type { Storage } from '../../storage/storage.ts';
import { writeBackup } from './backup.ts';

/**
 * The embedded engine is one process's (docs/decisions/007): a backup of a running server is written by that
 * server. `npm run backup` asks it over a Unix socket in DATA_DIR, which only the data directory's owner can
 * open (mode 0600): nothing is exposed on the network.
 */
export const backupSocketPath = (dataDir: string) => join(dataDir, 'backup.sock');

/** Linux's limit on a socket's path (108 bytes with the terminating NUL). */
const SOCKET_PATH_MAX = 107;

export type BackupHandler = (response: ServerResponse) => Promise<void>;

/** Serves POST /backup on the socket; resolves with a function that stops it, or null when the path is too long. */
export async function listenForBackups(
  dataDir: string,
  backup: BackupHandler,
  onError: (error: unknown) => void,
): Promise<(() => Promise<void>) | null> {
  const path = backupSocketPath(dataDir);
  if (Buffer.byteLength(path) > SOCKET_PATH_MAX) return null;
  // One server per data directory (its lock is ours): a socket file left here is a killed server's.
  await rm(path, { force: true });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET' && req.url === '/status') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('serving\n');
      return;
    }
    if (req.method !== 'POST' || req.url !== '/backup') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only POST /backup is served here.\n');
      return;
    }
    backup(res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`${(error as Error).message}\n`);
      } else {
        // The archive is cut short: the client sees the connection break instead of an end.
        res.destroy(error as Error);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
  await chmod(path, 0o600);
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * Asks the server on `dataDir` for a backup: its response (status 200 and the archive, or an error), or null when no
 * server listens there (no socket, or one a killed server left).
 */
export const requestBackup = (dataDir: string) => ask(dataDir, 'POST', '/backup');

/** Whether a server is serving `dataDir` right now (it answers on its socket). */
export async function isServing(dataDir: string): Promise<boolean> {
  const res = await ask(dataDir, 'GET', '/status');
  res?.resume();
  return res !== null;
}

function ask(dataDir: string, method: string, path: string): Promise<IncomingMessage | null> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: backupSocketPath(dataDir), method, path }, resolve);
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
    req.end();
  });
}

/** The socket's handler: the backup of `db` and `storage`, its manifest and size in the headers. */
export function backupResponder(source: { db: Database; storage: Storage }): BackupHandler {
  return async (res) => {
    const body = new PassThrough();
    body.pipe(res, { end: false });
    const sent = once(body, 'end');
    // Awaited below once the archive is written; a failure before that is the backup's own, reported by it.
    sent.catch(() => undefined);
    // A client that goes away ends the backup (its writes would otherwise wait for a reader forever).
    res.once('close', () => {
      if (!res.writableEnded) body.destroy(new Error('the backup client disconnected'));
    });
    const { ending } = await writeBackup({
      ...source,
      out: body,
      onReady: (manifest, bytes) => {
        res.writeHead(200, {
          'content-type': 'application/x-tar',
          'x-backup-bytes': String(bytes),
          'x-backup-manifest': JSON.stringify(manifest),
          trailer: 'x-backup-missing',
        });
      },
    });
    await sent;
    // The count of lost files comes after the archive, in a trailer, since it is known only at its end.
    res.addTrailers({ 'x-backup-missing': String(ending.missing.length) });
    res.end();
  };
}
