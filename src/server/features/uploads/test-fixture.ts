// What the sweep suites share: a file store that outlives the test apps started on it, on disk or in S3, and a way
// to make its files look old (the sweep leaves files younger than an hour alone).
import { mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../runtime/config.ts';
import { startS3TestServer } from '../../testing/s3-test-server.ts';

export type KeptStore = {
  /** The settings that put an app's files in this store. */
  config: Pick<Config, 'dataDir' | 'storage'>;
  /** Dates every file of the store `ms` back. */
  age(ms: number): Promise<void>;
  drop(): Promise<void>;
};

async function backdate(dir: string, when: Date): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) await utimes(join(entry.parentPath, entry.name), when, when);
  }
}

/** A store on disk (DATA_DIR/uploads) or in an S3-protocol server of its own. */
export async function keptStore(backend: 'disk' | 'S3'): Promise<KeptStore> {
  const dataDir = await mkdtemp(join(tmpdir(), 'easyform-kept-store-'));
  const s3 = backend === 'S3' ? await startS3TestServer() : null;
  const filesDir = s3 ? s3.directory : join(dataDir, 'uploads');
  return {
    config: { dataDir, storage: s3 ? loadConfig({ STORAGE_URL: s3.storageUrl() }).storage : undefined },
    age: (ms) => backdate(filesDir, new Date(Date.now() - ms)),
    async drop() {
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Every log line an app writes, as text, for `logStream`. */
export function logLines(): { lines: string[]; stream: { write(line: string): void } } {
  const lines: string[] = [];
  return { lines, stream: { write: (line) => void lines.push(line) } };
}
