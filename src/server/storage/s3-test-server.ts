import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export type S3TestServer = {
  /** STORAGE_URL for an app that keeps its files here, under `prefix`. */
  storageUrl(prefix?: string): string;
  /** Where s3rver keeps the objects: an object's LastModified is its file's mtime. */
  directory: string;
  close(): Promise<void>;
};

export const TEST_BUCKET = 'easyform-test';

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 with one bucket, its objects in a temporary directory, for the
 * tests that run the uploads against S3-compatible storage. The AWS SDK needs credentials: any will do here.
 */
export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'easyform-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
  return {
    directory,
    storageUrl: (prefix = 'uploads') =>
      `s3://${TEST_BUCKET}/${prefix}?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true`,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
