import { randomBytes } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { checkedKey, type Storage } from './storage.ts';
import { MARKER_NAME, markerOf, PROBE_NAME, QUARANTINE_FOLDER } from './store-layout.ts';

const isNoSuchKey = (error: unknown) =>
  error instanceof NoSuchKey || (error as { name?: string } | null)?.name === 'NoSuchKey';

/**
 * The S3 store's instance marker (`<prefix>.easyform-instance`), readiness probe (`<prefix>.easyform-ready.<random>`,
 * one name per process, so that processes sharing the bucket never write and delete the same key at once; deleted
 * at once) and quarantine (`<prefix>quarantine/<key>`). A move
 * is a copy and a delete: S3 has no rename, and the copy's LastModified (its time of arrival) dates the quarantine.
 */
export function s3MarkerAndQuarantine(
  client: S3Client,
  { bucket, prefix }: { bucket: string; prefix: string },
): Pick<Storage, 'readMarker' | 'writeMarker' | 'quarantine' | 'purgeQuarantine' | 'probe'> {
  const held = `${prefix}${QUARANTINE_FOLDER}/`;
  const probeKey = `${prefix}${PROBE_NAME}.${randomBytes(6).toString('hex')}`;
  return {
    async readMarker() {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + MARKER_NAME }));
        return markerOf((await object.Body?.transformToString('utf8')) ?? '');
      } catch (error) {
        if (isNoSuchKey(error)) return null;
        throw error;
      }
    },
    async probe(signal) {
      const Key = probeKey;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'ready\n' }), {
        abortSignal: signal,
      });
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key }), { abortSignal: signal });
    },
    async writeMarker(id) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: prefix + MARKER_NAME, Body: `${id}\n` }));
    },
    async quarantine(key) {
      const from = prefix + checkedKey(key);
      try {
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: held + key,
            CopySource: encodeURI(`${bucket}/${from}`),
          }),
        );
      } catch (error) {
        if (isNoSuchKey(error)) return;
        throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from }));
    },
    async purgeQuarantine(cutoff) {
      let purged = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: held, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(held.length) ?? '';
          if (!/^[\w-]+(\.part)?$/.test(name) || !object.LastModified || object.LastModified >= cutoff)
            continue;
          await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: held + name }));
          purged += 1;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return purged;
    },
  };
}
