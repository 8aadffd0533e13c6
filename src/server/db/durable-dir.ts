import fs from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

/**
 * Durability for the embedded engine's data directory (docs/decisions/007, addendum of 2026-11-24).
 *
 * PGlite runs PostgreSQL with fsync off, and its Node filesystem has no fsync of its own: it writes the data
 * directory with Node's synchronous `fs` calls (`openSync`, `writeSync`, `writeFileSync`, `renameSync`…). This module
 * watches those calls for the directories registered with it — which files were written, which WAL segments — and
 * makes them durable at the moments PostgreSQL itself would have:
 *
 * - `flushWal()`, awaited after every write the app makes and before it answers: the WAL written so far is synced
 *   (fdatasync), and the pg_wal directory when a segment was created. A 200 then means the change is on stable
 *   storage: after a power cut, recovery replays it from the WAL.
 * - Before PostgreSQL removes or recycles a WAL segment (only at a checkpoint: PGlite checkpoints when it starts after
 *   a crash and when it closes), and before it writes `global/pg_control`, every data file written since the last
 *   sync is synced: the WAL that covers a change is never gone before the change itself is durable.
 * - `syncAll()`, after the database opened and after it closed: everything written is synced.
 *
 * Full-page writes stay on (PGlite's default), so a page torn by the power cut is restored from the WAL.
 */

/** How bytes reach stable storage: the real system calls, or (the power-cut test) a model of the disk. */
export type Disk = {
  /** Makes the file's content durable, blocking; `dataOnly`: its size and bytes (fdatasync), not its times. */
  syncFile(path: string, dataOnly: boolean): void;
  /** The same without blocking the event loop (the WAL flush after each commit). */
  syncFileAsync(path: string, dataOnly: boolean): Promise<void>;
  /** Makes the directory's entries (files created, renamed, removed in it) durable. */
  syncDir(path: string): void;
  /** Told after a file was removed or renamed: the test's model applies it at once, as a disk may. */
  removed?(path: string): void;
  renamed?(from: string, to: string): void;
};

/**
 * Descriptors of our own on the WAL segments, kept open between flushes: a flush is then one fdatasync on libuv's
 * pool, not an open, a sync and a close (1.0 ms more a commit than 0.35 ms of fdatasync here). Closed when the
 * segment is removed or renamed, and when its directory is released.
 */
const syncHandles = new Map<string, number>();

function forgetHandle(path: string): void {
  const fd = syncHandles.get(path);
  if (fd === undefined) return;
  syncHandles.delete(path);
  original.closeSync(fd);
}

export const realDisk: Disk = {
  syncFile: (path, dataOnly) => syncPath(path, dataOnly),
  async syncFileAsync(path, dataOnly) {
    let fd = syncHandles.get(path);
    if (fd === undefined) {
      try {
        fd = original.openSync(path, 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed since: nothing left to keep
        throw error;
      }
      syncHandles.set(path, fd);
    }
    const handle = fd;
    await new Promise<void>((resolve, reject) =>
      (dataOnly ? fs.fdatasync : fs.fsync)(handle, (error) => (error ? reject(error) : resolve())),
    );
  },
  syncDir: (path) => syncPath(path, false),
  removed: forgetHandle,
  renamed: (from) => forgetHandle(from),
};

/** fsync through a descriptor of our own: on Linux it flushes the file's pages whoever wrote them. */
function syncPath(path: string, dataOnly: boolean): void {
  let fd: number;
  try {
    fd = original.openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed since: nothing left to keep
    throw error;
  }
  try {
    if (dataOnly) fs.fdatasyncSync(fd);
    else fs.fsyncSync(fd);
  } finally {
    original.closeSync(fd);
  }
}

type Tracked = {
  root: string;
  wal: string;
  disk: Disk;
  /** Written since their last sync. */
  dirtyWal: Set<string>;
  dirtyFiles: Set<string>;
  dirtyDirs: Set<string>;
  /** WAL writes so far, and how many of them the last completed flush covered. */
  walWrites: number;
  walSynced: number;
  flushing: Promise<void> | null;
};

const tracked = new Map<string, Tracked>();
const descriptors = new Map<number, { path: string; dir: Tracked }>();

const original = {
  openSync: fs.openSync,
  closeSync: fs.closeSync,
  writeSync: fs.writeSync,
  writeFileSync: fs.writeFileSync,
  renameSync: fs.renameSync,
  unlinkSync: fs.unlinkSync,
  truncateSync: fs.truncateSync,
  ftruncateSync: fs.ftruncateSync,
  mkdirSync: fs.mkdirSync,
  rmdirSync: fs.rmdirSync,
};

const dirOf = (path: unknown): Tracked | undefined => {
  if (typeof path !== 'string') return undefined;
  for (const dir of tracked.values()) if (path.startsWith(dir.root + sep)) return dir;
  return undefined;
};

const isWal = (dir: Tracked, path: string) => dirname(path) === dir.wal;
/** A WAL segment's name: timeline, log and segment, 8 hex digits each. */
const isSegment = (dir: Tracked, path: string) => isWal(dir, path) && /^[0-9A-F]{24}$/.test(basename(path));

function wrote(dir: Tracked, path: string): void {
  if (isWal(dir, path)) {
    dir.dirtyWal.add(path);
    dir.walWrites += 1;
  } else {
    dir.dirtyFiles.add(path);
  }
}

/** Syncs, blocking, everything written in `dir` so far: data files, WAL, then the directories that changed. */
function syncEverythingNow(dir: Tracked): void {
  for (const path of [...dir.dirtyFiles, ...dir.dirtyWal]) dir.disk.syncFile(path, false);
  for (const path of dir.dirtyDirs) dir.disk.syncDir(path);
  dir.dirtyFiles.clear();
  dir.dirtyWal.clear();
  dir.dirtyDirs.clear();
  dir.walSynced = dir.walWrites;
}

let installed = false;

/** Puts the watch on Node's `fs` (once per process); calls for paths outside registered directories pass through. */
function install(): void {
  if (installed) return;
  installed = true;
  const f = fs as unknown as Record<string, (...args: unknown[]) => unknown>;
  f.openSync = (...args) => {
    const fd = (original.openSync as (...a: unknown[]) => number)(...args);
    const dir = dirOf(args[0]);
    if (dir) {
      descriptors.set(fd, { path: args[0] as string, dir });
      // The file may be new: its name is durable only once its directory is synced.
      dir.dirtyDirs.add(dirname(args[0] as string));
    }
    return fd;
  };
  f.closeSync = (...args) => {
    descriptors.delete(args[0] as number);
    return (original.closeSync as (...a: unknown[]) => unknown)(...args);
  };
  f.writeSync = (...args) => {
    const open = descriptors.get(args[0] as number);
    // pg_control names the checkpoint recovery starts from: the data files it vouches for are synced first.
    if (open && open.path.endsWith(`${sep}global${sep}pg_control`)) syncEverythingNow(open.dir);
    const written = (original.writeSync as (...a: unknown[]) => unknown)(...args);
    if (open) wrote(open.dir, open.path);
    return written;
  };
  f.ftruncateSync = (...args) => {
    const open = descriptors.get(args[0] as number);
    if (open) wrote(open.dir, open.path);
    return (original.ftruncateSync as (...a: unknown[]) => unknown)(...args);
  };
  f.writeFileSync = (...args) => {
    const result = (original.writeFileSync as (...a: unknown[]) => unknown)(...args);
    const dir = dirOf(args[0]);
    if (dir) {
      wrote(dir, args[0] as string);
      dir.dirtyDirs.add(dirname(args[0] as string));
    }
    return result;
  };
  f.truncateSync = (...args) => {
    const dir = dirOf(args[0]);
    if (dir) wrote(dir, args[0] as string);
    return (original.truncateSync as (...a: unknown[]) => unknown)(...args);
  };
  f.mkdirSync = (...args) => {
    const result = (original.mkdirSync as (...a: unknown[]) => unknown)(...args);
    const dir = dirOf(args[0]);
    if (dir) {
      dir.dirtyDirs.add(args[0] as string);
      dir.dirtyDirs.add(dirname(args[0] as string));
    }
    return result;
  };
  const removal =
    (name: 'unlinkSync' | 'rmdirSync') =>
    (...args: unknown[]) => {
      const dir = dirOf(args[0]);
      // A WAL segment goes only at a checkpoint: what it covers must be durable before it is gone.
      if (dir && isSegment(dir, args[0] as string)) syncEverythingNow(dir);
      const result = (original[name] as (...a: unknown[]) => unknown)(...args);
      if (dir) {
        dir.dirtyFiles.delete(args[0] as string);
        dir.dirtyWal.delete(args[0] as string);
        dir.dirtyDirs.add(dirname(args[0] as string));
        dir.disk.removed?.(args[0] as string);
      }
      return result;
    };
  f.unlinkSync = removal('unlinkSync');
  f.rmdirSync = removal('rmdirSync');
  f.renameSync = (...args) => {
    const [from, to] = args as [string, string];
    const dir = dirOf(from);
    // Recycling an old segment under a future name overwrites it later: the same rule as removing it.
    if (dir && isSegment(dir, from)) syncEverythingNow(dir);
    const result = (original.renameSync as (...a: unknown[]) => unknown)(...args);
    if (dir) {
      for (const set of [dir.dirtyFiles, dir.dirtyWal]) {
        if (set.delete(from)) set.add(to);
      }
      // A renamed file's bytes must be durable under its new name too (pg_wal's xlogtemp becomes a segment).
      wrote(dir, to);
      dir.dirtyDirs.add(dirname(from));
      dir.dirtyDirs.add(dirname(to));
      dir.disk.renamed?.(from, to);
    }
    return result;
  };
}

export type DurableDir = {
  /** Resolves once every WAL write made before the call is on stable storage. */
  flushWal(): Promise<void>;
  /** Whether anything was written to the WAL since the last flush (a read-only query writes none). */
  walDirty(): boolean;
  /** Syncs everything written so far (after opening, after closing). */
  syncAll(): void;
  /** Stops watching the directory. */
  release(): void;
};

/** Watches `root` (a PGlite data directory) from now on; register it before the database opens. */
export function watchDataDir(root: string, disk: Disk = realDisk): DurableDir {
  install();
  const dir: Tracked = {
    root,
    wal: join(root, 'pg_wal'),
    disk,
    dirtyWal: new Set(),
    dirtyFiles: new Set(),
    dirtyDirs: new Set([root]),
    walWrites: 0,
    walSynced: 0,
    flushing: null,
  };
  tracked.set(root, dir);

  const flushOnce = async () => {
    const upTo = dir.walWrites;
    const wal = [...dir.dirtyWal];
    dir.dirtyWal.clear();
    // New segments are new names in pg_wal: the directory too.
    const walDirChanged = dir.dirtyDirs.delete(dir.wal);
    await Promise.all(wal.map((path) => dir.disk.syncFileAsync(path, true)));
    if (walDirChanged) dir.disk.syncDir(dir.wal);
    dir.walSynced = Math.max(dir.walSynced, upTo);
  };

  return {
    async flushWal() {
      const target = dir.walWrites;
      // Callers arriving while a flush runs wait for it and, if they wrote after it began, for one more: one
      // fdatasync covers every commit of its round (a group sync).
      while (dir.walSynced < target) {
        dir.flushing ??= flushOnce().finally(() => (dir.flushing = null));
        await dir.flushing;
      }
    },
    walDirty: () => dir.walSynced < dir.walWrites,
    syncAll: () => syncEverythingNow(dir),
    release() {
      tracked.delete(root);
      for (const path of [...syncHandles.keys()]) if (path.startsWith(root + sep)) forgetHandle(path);
      for (const [fd, open] of descriptors) if (open.dir === dir) descriptors.delete(fd);
    },
  };
}
