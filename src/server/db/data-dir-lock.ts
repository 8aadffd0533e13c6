// The embedded database may be opened by one process only: two servers on one DATA_DIR would each write its files and
// corrupt it. The lock is a directory next to it (proper-lockfile) whose time the holder refreshes; a holder that
// died without unlocking leaves it behind. When that holder is provably gone (same host, its process no longer runs),
// the lock is taken over at once; otherwise a new server waits for the lock to go stale (about 12 s).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { lock } from 'proper-lockfile';

/** Thrown when another process has the embedded database open. */
export class DatabaseInUseError extends Error {}

/** Who holds the lock: written by the holder right after it took it, beside it. */
type Holder = { host: string; pid: number; run: string; lockIno: number };

/**
 * This process's run: tells it from an earlier process that had the same pid (a restarted container's pid 1). Kept in
 * the environment so that every thread of the process, each with its own copy of this module, names the same run (the
 * embedded engine takes the lock on a thread of its own); another process that inherits it has another pid.
 */
// eslint-disable-next-line no-restricted-properties -- a mark between the threads of this process, not a setting
const THIS_RUN = (process.env.EASY_FORM_LOCK_RUN ??= randomBytes(8).toString('hex'));

const lockPath = (dir: string) => `${dir}.lock`;
const holderPath = (dir: string) => `${dir}.holder.json`;

async function writeHolder(dir: string): Promise<void> {
  const holder: Holder = {
    host: hostname(),
    pid: process.pid,
    run: THIS_RUN,
    lockIno: (await stat(lockPath(dir))).ino,
  };
  // Written whole, then renamed: a reader never sees half of it.
  const partial = `${holderPath(dir)}.${randomBytes(4).toString('hex')}`;
  await writeFile(partial, JSON.stringify(holder));
  await rename(partial, holderPath(dir));
}

async function readHolder(dir: string): Promise<Holder | null> {
  try {
    const parsed = JSON.parse(await readFile(holderPath(dir), 'utf8')) as Partial<Holder>;
    return typeof parsed.host === 'string' &&
      typeof parsed.run === 'string' &&
      Number.isInteger(parsed.pid) &&
      Number.isInteger(parsed.lockIno)
      ? (parsed as Holder)
      : null;
  } catch {
    return null;
  }
}

function isRunning({ pid, run }: Holder): boolean {
  if (pid === process.pid) return run === THIS_RUN;
  // A killed server whose parent died with it stays a zombie until init reaps it: dead, its files closed, but
  // still there for kill(pid, 0). Linux says so in /proc; elsewhere the signal is the only test.
  if (isZombie(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ...": the command may hold spaces and parentheses, so read after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

/**
 * Removes the lock when its holder is provably gone: it names this host, its process is not running, and the lock on
 * disk is the one it took (same inode; a lock someone took since, and has not yet written its holder for, is left
 * alone). Whether it removed it.
 */
async function takeOverFromTheDead(dir: string): Promise<boolean> {
  const holder = await readHolder(dir);
  if (!holder || holder.host !== hostname() || isRunning(holder)) return false;
  const current = await stat(lockPath(dir)).catch(() => null);
  if (!current || current.ino !== holder.lockIno) return false;
  // Moved aside in one step, then checked: if another server took the lock in between, we moved its lock and put
  // it back before it could notice (its next refresh is seconds away).
  const aside = `${lockPath(dir)}.dead-${randomBytes(4).toString('hex')}`;
  await rename(lockPath(dir), aside).catch(() => undefined);
  const moved = await stat(aside).catch(() => null);
  if (!moved) return false;
  if (moved.ino !== holder.lockIno) {
    await rename(aside, lockPath(dir)).catch(() => undefined);
    return false;
  }
  await rm(aside, { recursive: true, force: true });
  return true;
}

/** Takes the lock on `dir` for this process; resolves with the function that gives it back. */
export async function lockDataDir(
  dir: string,
  retries: number,
  onWait: (message: string) => void,
): Promise<() => Promise<void>> {
  const attempt = async (tries: number) => {
    const release = await lock(dir, {
      realpath: false,
      stale: 10_000,
      update: 2_500,
      // About 12 s in all: longer than a crashed holder's lock takes to go stale.
      retries: { retries: tries, factor: 1.5, minTimeout: 500, maxTimeout: 3_000 },
      onCompromised: (error) => {
        // Someone else took the database over (or its disk failed): stop before writing another page.
        // A JSON line as every line of the service, written before the exit (synchronously: on the engine's thread
        // process.stdout is a pipe to the main thread, which an exit would cut short); the engine's thread stops with
        // it, and the server with that thread (main.ts).
        pino(pino.destination({ dest: 1, sync: true })).fatal(
          `Easy Form lost the lock on its database in ${dir}; stopping. ${error.message}`,
        );
        process.exit(1);
      },
    });
    await writeHolder(dir);
    return async () => {
      await rm(holderPath(dir), { force: true });
      await release();
    };
  };
  try {
    return await attempt(0);
  } catch (error) {
    if (!isLocked(error)) throw error;
  }
  if (await takeOverFromTheDead(dir)) {
    onWait(`The database in ${dir} was left locked by a server that is no longer running; taking it over.`);
    try {
      return await attempt(0);
    } catch (error) {
      if (!isLocked(error)) throw error;
    }
  }
  if (retries === 0) throw inUse(dir);
  onWait(
    `The database in ${dir} is locked by another Easy Form server; waiting a few seconds in case it has just ` +
      'stopped or crashed…',
  );
  try {
    return await attempt(retries);
  } catch (error) {
    throw isLocked(error) ? inUse(dir) : error;
  }
}

const isLocked = (error: unknown) => (error as { code?: string }).code === 'ELOCKED';
const inUse = (dir: string) =>
  new DatabaseInUseError(
    `Another Easy Form server is already using the database in ${dir}. Stop it first, or give this one ` +
      'its own DATA_DIR.',
  );
