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
import { StartupError } from '../config.ts';
import { UnavailableError } from '../unavailable.ts';
import { checkHead } from './head-check.ts';
import type { S3Location } from './storage-url.ts';
import { newFileKey, urlSigner, type Storage } from './storage.ts';

/** Parts of a multipart upload: the smallest S3 allows, so at most this much of a file is in memory at a time. */
const PART_BYTES = 5 * 1024 * 1024;

/** How long reaching the S3 endpoint may take, at start-up or later. */
const S3_CONNECT_TIMEOUT_MS = 10_000;

/** How long S3 may take to start answering a download (its headers), retries included. */
const S3_ANSWER_TIMEOUT_MS = 15_000;

/** Why the bucket could not be used, in an operator's words (the SDK names a bare 403 "Unknown"). */
export function s3Failure(location: S3Location, error: unknown): string {
  const e = (error ?? {}) as {
    name?: unknown;
    code?: unknown;
    message?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  const where = location.endpoint ?? `AWS S3 (${location.region})`;
  const status = e.$metadata?.httpStatusCode;
  const bucket = `bucket "${location.bucket}"`;
  if (status === 404 || e.name === 'NotFound' || e.name === 'NoSuchBucket')
    return `${bucket} does not exist at ${where}`;
  if (status === 403 || status === 401)
    return `access to ${bucket} was refused: check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and that they may use the bucket)`;
  if (status === 301 || (status === 400 && /region/i.test(String(e.message))))
    return `${bucket} is in another region than "${location.region}": set ?region= in STORAGE_URL`;
  if (e.name === 'CredentialsProviderError')
    return 'no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY';
  const code = e.code ?? (error as { cause?: { code?: unknown } }).cause?.code;
  if (code === 'ECONNREFUSED') return `nothing accepts connections at ${where}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host of ${where} cannot be resolved`;
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || code === 'ETIMEDOUT')
    return `${where} did not answer within ${S3_CONNECT_TIMEOUT_MS / 1000} s`;
  const why = typeof e.message === 'string' && e.message ? e.message : String(e.name ?? error);
  return `${bucket} cannot be used at ${where}${status ? ` (HTTP ${status})` : ''}: ${why}`;
}

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
    // An endpoint that takes the connection and never answers fails a request instead of hanging it: connecting
    // may take 10 s, and a request may go 60 s without a byte either way (a large upload streams on meanwhile).
    requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, requestTimeout: 60_000 },
  });
  const { bucket, prefix } = location;
  // At start-up the bucket must answer within the connect timeout, retries included.
  await client
    .send(new HeadBucketCommand({ Bucket: bucket }), {
      abortSignal: AbortSignal.timeout(S3_CONNECT_TIMEOUT_MS),
    })
    .catch((error: unknown) => {
      client.destroy();
      throw new StartupError(`STORAGE_URL: ${s3Failure(location, error)}`, { cause: error });
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
      // An endpoint that takes the request and never answers would hold the owner's download for a minute an
      // attempt (the SDK tries three times): the answer's headers must come within S3_ANSWER_TIMEOUT_MS in all.
      // Only the wait for them: the body then streams for as long as it takes.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), S3_ANSWER_TIMEOUT_MS);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + key }), {
          abortSignal: deadline.signal,
        });
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        if (deadline.signal.aborted) {
          const where = location.endpoint ?? `AWS S3 (${location.region})`;
          throw new UnavailableError({
            service: 'file storage',
            reason: `${where} did not answer within ${S3_ANSWER_TIMEOUT_MS / 1000} s`,
          });
        }
        throw error;
      } finally {
        clearTimeout(timer);
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
