import { open } from 'node:fs/promises';

/**
 * How the disk store makes a file it answers for durable (issue 34): its bytes before it gets its final name, then
 * the directory that holds the name. The real system calls, or (the power-cut test) a model of the disk.
 */
export type FileSync = {
  /** The file's bytes on stable storage (fsync). */
  file(path: string): Promise<void>;
  /** The directory's entries on stable storage: names created, renamed, linked or removed in it. */
  dir(path: string): Promise<void>;
};

export const realFileSync: FileSync = {
  // Opened for writing: some systems refuse to flush a file opened only for reading.
  file: (path) => syncThrough(path, 'r+'),
  async dir(path) {
    await syncThrough(path, 'r').catch((error: NodeJS.ErrnoException) => {
      // Where a directory cannot be opened or synced (Windows, some network file systems), a rename is as durable
      // as the system makes it: nothing more can be done from here.
      if (error.code === 'EINVAL' || error.code === 'EISDIR' || error.code === 'EPERM') return;
      throw error;
    });
  },
};

async function syncThrough(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
