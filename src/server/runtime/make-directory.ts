import { mkdir } from 'node:fs/promises';

/**
 * `mkdir -p` that says why it failed. Node's recursive mkdir answers ENOENT where the real reason is that the file
 * system is read-only (EROFS), which start-up would then report as a bug rather than as DATA_DIR's problem: when
 * the recursive call says ENOENT, one plain mkdir of the last part asks the file system again, and its error (EROFS,
 * EACCES, or ENOENT when a parent is truly missing) is the one thrown.
 */
export async function makeDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true });
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== 'ENOENT') throw error;
    await mkdir(path);
  }
}
