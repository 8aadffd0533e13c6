import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

export type S3TestServer = {
  /** STORAGE_URL for an app that keeps its files here, under `prefix`. */
  storageUrl(prefix?: string): string;
  /** Where s3rver keeps the objects: an object's LastModified is its file's mtime. */
  directory: string;
  /** Starts it (again), on the port it had. */
  up(): Promise<void>;
  /** Stops it, keeping its objects: an S3 endpoint that is down. */
  down(): Promise<void>;
  close(): Promise<void>;
};

export const TEST_BUCKET = 'easyform-test';

type StoredObject = { bucket: string; key: string; metadata: unknown; content: Buffer | Readable };
type FilesystemStore = {
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
};

/**
 * s3rver removes a folder a delete leaves empty. A write into that folder at the same moment (one process's instance
 * marker beside another's readiness probe, deleted as soon as written) then fails on a file stream s3rver does not
 * listen to: an uncaught ENOENT that ends the test process. S3 has no folders; here they stay, and a delete only
 * removes the object's own files.
 */
function keepDirectories(server: S3rver) {
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.deleteObject = async (bucket, key) => {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        unlink(store.getResourcePath(bucket, key, resource)).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
        }),
      ),
    );
  };
}

/**
 * s3rver writes an object over its file in place: a read meanwhile (two processes writing and reading back one instance
 * marker) gets the file cut short under the length it announced, and waits for bytes that never come until the
 * connection closes ("aborted"). S3 gives a reader the old object or the new one, whole; here the new one is written
 * beside the old and renamed over it once complete, and the write is answered only then.
 */
function writeWhole(server: S3rver) {
  const store = (server as unknown as { store: FilesystemStore }).store;
  store.putObject = async ({ bucket, key, metadata, content }) => {
    const path = store.getResourcePath(bucket, key, 'object');
    const partial = `${path}.${randomBytes(6).toString('hex')}.partial`;
    await mkdir(dirname(path), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Buffer.isBuffer(content) ? Readable.from([content]) : content,
        count,
        createWriteStream(partial),
      );
      await rename(partial, path);
    } finally {
      await rm(partial, { force: true });
    }
    const digest = md5.digest('hex');
    await store.putMetadata(bucket, key, metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * A real S3-protocol server (s3rver) on 127.0.0.1 with one bucket, its objects in a temporary directory, for the
 * tests that run the uploads against S3-compatible storage. The AWS SDK needs credentials: any will do here.
 */
export async function startS3TestServer(
  options: {
    /** Its port, known before it listens (0: any free one). */
    port?: number;
    /** Listening once this resolves (the default); false: not until `up()`, as an S3 that comes up after the app. */
    running?: boolean;
  } = {},
): Promise<S3TestServer> {
  const directory = await mkdtemp(join(tmpdir(), 'easyform-s3-'));
  let port = options.port ?? 0;
  let server: S3rver | undefined;
  // A new s3rver on the same port and directory each time: the objects it held are there again.
  const up = async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: TEST_BUCKET }],
    });
    keepDirectories(server);
    writeWhole(server);
    port = (await server.run()).port;
  };
  const down = async () => {
    await server?.close();
    server = undefined;
  };
  if (options.running !== false) await up();
  process.env.AWS_ACCESS_KEY_ID ??= 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'S3RVER';
  return {
    directory,
    storageUrl: (prefix = 'uploads') => {
      const endpoint = encodeURIComponent(`http://127.0.0.1:${port}`);
      return `s3://${TEST_BUCKET}/${prefix}?endpoint=${endpoint}&region=us-east-1&forcePathStyle=true`;
    },
    up,
    down,
    async close() {
      await down();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
