import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { UnavailableError } from '../http/unavailable.ts';
import { StartupError } from '../runtime/config.ts';
import { checkHead } from './head-check.ts';
import { s3MarkerAndQuarantine } from './s3-quarantine.ts';
import { watchForStall } from './s3-stall.ts';
import type { S3Location } from './storage-url.ts';
import { checkedKey, newFileKey, urlSigner, type Storage } from './storage.ts';

/** Parts of a multipart upload: the smallest S3 allows, so at most this much of a file is in memory at a time. */
const PART_BYTES = 5 * 1024 * 1024;

/** How long reaching the S3 endpoint may take, at start-up or later. */
const S3_CONNECT_TIMEOUT_MS = 10_000;

/**
 * How long S3 may take to start answering a download (its headers), retries included; and how long an upload may go
 * without S3 taking a byte of it or answering one of its requests (s3-stall.ts).
 */
const S3_ANSWER_TIMEOUT_MS = 15_000;

/**
 * `client` as one upload sees it: every request the upload sends, but the abort of its multipart upload, is cancelled
 * with `signal`. An upload given up (S3 stalled, a refused file, a body cut off) then lets go of the part it holds
 * (5 MiB) and its connection at once; before, Upload's requests went on to the SDK's request timeout, a minute a try
 * and three tries, so an S3 that takes requests and never answers held 5 MiB for minutes for each customer's try.
 * A multipart upload whose creation S3 had made but not yet answered is left incomplete: see docs/operations.md.
 */
function cancellableWith(client: S3Client, signal: AbortSignal): S3Client {
  const send = (command: Parameters<S3Client['send']>[0], options?: { abortSignal?: AbortSignal }) =>
    client.send(
      command,
      command instanceof AbortMultipartUploadCommand ? options : { ...options, abortSignal: signal },
    );
  return Object.create(client, { send: { value: send } }) as S3Client;
}

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
 * The SDK's logger: its warnings (a request past its timeout, sockets at capacity) become warning lines of our log
 * instead of plain text on stderr. Its info and error lines, one a command with the command's input, are left out:
 * what failed is said by our own code, once, in an operator's words.
 */
function sdkLogger(log: { warn(message: string): void }) {
  const nothing = () => undefined;
  return {
    trace: nothing,
    debug: nothing,
    info: nothing,
    error: nothing,
    warn: (...content: unknown[]) =>
      log.warn(`S3 client: ${content.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))).join(' ')}`),
  };
}

/**
 * Uploaded files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…), with the credentials of the usual AWS
 * environment variables. A file is streamed up as it arrives (one PUT, or a multipart upload for a large file),
 * never buffered whole; the first bytes are inspected on the way, and a refused file leaves nothing behind.
 */
export async function createS3Storage(
  location: S3Location,
  signingKey: string,
  {
    answerTimeoutMs = S3_ANSWER_TIMEOUT_MS,
    log,
  }: { answerTimeoutMs?: number; log?: { warn(message: string): void } } = {},
): Promise<Storage> {
  const logger = log && sdkLogger(log);
  const client = new S3Client({
    logger,
    region: location.region,
    endpoint: location.endpoint,
    forcePathStyle: location.forcePathStyle,
    // Checksums only where S3 requires them: S3-compatible servers differ in the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An endpoint that takes the connection and never answers fails a request instead of hanging it: connecting
    // may take 10 s, and a request may go 60 s without a byte either way (a large upload streams on meanwhile).
    requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, requestTimeout: 60_000, logger },
  });
  const { bucket, prefix } = location;
  const where = location.endpoint ?? `AWS S3 (${location.region})`;
  const within = `${answerTimeoutMs / 1000} s`;
  // Each upload in progress hears when S3 answers one of its requests (by its object key): progress, for its watch.
  const uploading = new Map<string, () => void>();
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const key = (args.input as { Key?: unknown }).Key;
      if (typeof key === 'string') uploading.get(key)?.();
      return result;
    },
    { step: 'initialize', name: 'easyformUploadAnswered' },
  );
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
   * multipart one aborted) and an object that was written after all is removed. An S3 that stops answering or taking
   * bytes for `answerTimeoutMs` fails it with UnavailableError (a 503), instead of holding the customer's request,
   * unread, until the slow-body guard or the SDK's minute-long timeouts end it.
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
    const cancel = new AbortController();
    const upload = new Upload({
      client: cancellableWith(client, cancel.signal),
      params: { Bucket: bucket, Key: prefix + checkedKey(key), Body: body },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    });
    let stalled: UnavailableError | undefined;
    const watch = watchForStall(body, answerTimeoutMs, () => {
      stalled = new UnavailableError({
        service: 'file storage',
        reason: `${where} took no byte of an upload and answered none of its requests for ${within}`,
      });
      cancel.abort(stalled);
      void upload.abort();
      body.destroy(stalled);
    });
    uploading.set(prefix + checkedKey(key), watch.answered);
    try {
      await Promise.all([pipeline([source, ...checks, counted, body]), upload.done()]);
    } catch (error) {
      watch.stop();
      cancel.abort(error);
      await upload.abort().catch(() => undefined);
      body.destroy();
      const removed = client
        .send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + checkedKey(key) }))
        .catch(() => undefined);
      // An S3 that stopped answering would hold the 503 as long again: the removal goes on without the request.
      // (A multipart upload whose creation is answered late is aborted then by Upload itself.)
      if (!stalled) await removed;
      throw stalled ?? error;
    } finally {
      watch.stop();
      uploading.delete(prefix + key);
    }
    return size;
  };

  return {
    ...urlSigner(signingKey),
    ...s3MarkerAndQuarantine(client, location),
    async save(source, inspect) {
      const key = newFileKey();
      return { key, size: await send(key, source, checkHead(inspect)) };
    },
    put: (key, source) => send(key, source),
    async open(key) {
      // An endpoint that takes the request and never answers would hold the owner's download for a minute an
      // attempt (the SDK tries three times): the answer's headers must come within answerTimeoutMs in all.
      // Only the wait for them: the body then streams for as long as it takes.
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), answerTimeoutMs);
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: prefix + checkedKey(key) }),
          {
            abortSignal: deadline.signal,
          },
        );
        return object.Body instanceof Readable ? object.Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
        if (deadline.signal.aborted) {
          throw new UnavailableError({
            service: 'file storage',
            reason: `${where} did not answer within ${within}`,
          });
        }
        throw error;
      } finally {
        clearTimeout(timer);
      }
    },
    async size(key) {
      try {
        const head = await client.send(
          new HeadObjectCommand({ Bucket: bucket, Key: prefix + checkedKey(key) }),
        );
        return head.ContentLength ?? null;
      } catch (error) {
        // A HEAD's 404 has no body to name it NoSuchKey: the SDK calls it NotFound.
        const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
        if (e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404)
          return null;
        throw error;
      }
    },
    async remove(key) {
      // Deleting a missing object succeeds in S3: the same as removing a file that is gone.
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + checkedKey(key) }));
    },
    async *keysWrittenBefore(cutoff) {
      let token: string | undefined;
      do {
        const page = await client.send(
          // Only the files at the prefix's top: the quarantine (and anything else in a folder below) is not listed.
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix,
            Delimiter: '/',
            ContinuationToken: token,
          }),
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
