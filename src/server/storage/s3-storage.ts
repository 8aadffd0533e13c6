import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { checkHead } from './head-check.ts';
import type { S3Location } from './storage-url.ts';
import { newFileKey, urlSigner, type Storage } from './storage.ts';

/** Parts of a multipart upload: the smallest S3 allows, so at most this much of a file is in memory at a time. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Uploaded files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), with the credentials of the usual AWS
 * environment variables. A file is streamed up as it arrives (one PUT, or a multipart upload for a large file),
 * never buffered whole; the first bytes are inspected on the way, and a refused file leaves nothing behind.
 */
export async function createS3Storage(location: S3Location, signingKey: string): Promise<Storage> {
  const client = new S3Client({
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible servers differ in the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const { bucket, prefix } = location;
  await client.send(new HeadBucketCommand({ Bucket: bucket })).catch((error: unknown) => {
    throw new Error(
      `STORAGE_URL: bucket "${bucket}" cannot be reached (${error instanceof Error ? error.name : String(error)}): ` +
        'check that it exists and that AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY may use it',
      { cause: error },
    );
  });

  /**
   * Streams `source` through `checks` up as one object (one PUT, or a multipart upload for a large file); resolves
   * with its size. On a failure (a check refusing the first bytes, a broken request) the upload is abandoned (a
   * multipart one aborted) and an object that was written after all is removed.
   */
  const send = async (key: string, source: Readable, ...checks: Transform[]): Promise<number> => {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const body = new PassThrough();
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: prefix + key, Body: body },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline([source, ...checks, counted, body]), upload.done()]);
    } catch (error) {
      await upload.abort().catch(() => undefined);
      body.destroy();
      await client
        .send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + key }))
        .catch(() => undefined);
      throw error;
    }
    return size;
  };

  return {
    ...urlSigner(signingKey),
    async save(source, inspect) {
      const key = newFileKey();
      return { key, size: await send(key, source, checkHead(inspect)) };
    },
    put: (key, source) => send(key, source),
    async open(key) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }));
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        throw error;
      }
    },
    async remove(key) {
      // Deleting a missing object succeeds in S3: the same as removing a file that is gone.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + key }));
    },
    async *keysWrittenBefore(cutoff) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(prefix.length);
          // Only our own keys: anything else under the prefix (a folder marker, another tool's file) is left alone.
          if (name && /^[\w-]+$/.test(name) && object.LastModified && object.LastModified < cutoff)
            yield name;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
