// The S3 stand-in itself: a delete and a write in one folder at the same moment (one process's readiness probe beside
// another's instance marker, as two workers start) must not end the test process with an uncaught ENOENT; an object read
// as soon as its write is answered is whole (a marker written and read back).
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, it } from 'vitest';
import { type S3TestServer, startS3TestServer, TEST_BUCKET } from './s3-test-server.ts';

const endpointOf = (s3: S3TestServer) =>
  new URL(s3.storageUrl().replace('s3://', 'http://')).searchParams.get('endpoint') ?? '';
const clientOf = (s3: S3TestServer) =>
  new S3Client({ endpoint: endpointOf(s3), region: 'us-east-1', forcePathStyle: true });

it('takes a write beside a delete in the same folder, keeping the object written', async () => {
  const s3 = await startS3TestServer();
  try {
    const client = clientOf(s3);
    for (let i = 0; i < 100; i++) {
      await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/probe`, Body: 'ready' }));
      await Promise.all([
        client.send(new DeleteObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/probe` })),
        client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/marker`, Body: 'id' })),
      ]);
    }
    const last = await fetch(`${endpointOf(s3)}/${TEST_BUCKET}/p99/marker`);
    expect(await last.text()).toBe('id');
  } finally {
    await s3.close();
  }
});

it('gives a reader the old object whole while a new one is being written, and the new one once answered', async () => {
  const s3 = await startS3TestServer();
  try {
    const client = clientOf(s3);
    const read = async () => {
      const object = await client.send(new GetObjectCommand({ Bucket: TEST_BUCKET, Key: 'marker' }));
      return Buffer.from((await object.Body?.transformToByteArray()) ?? []).toString();
    };
    const before = 'a'.repeat(64 * 1024);
    const after = 'b'.repeat(64 * 1024);
    await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: 'marker', Body: before }));
    // Another process's write of the same key, half sent.
    const put = request(`${endpointOf(s3)}/${TEST_BUCKET}/marker`, {
      method: 'PUT',
      headers: { 'content-length': String(after.length) },
    });
    const answered = new Promise<number | undefined>((resolve, reject) => {
      put.on('response', (res) => resolve(res.resume().statusCode)).on('error', reject);
    });
    put.write(after.slice(0, after.length / 2));
    await setTimeout(300);
    expect(await read()).toBe(before);
    put.end(after.slice(after.length / 2));
    expect(await answered).toBe(200);
    expect(await read()).toBe(after);
    expect(await readdir(join(s3.directory, TEST_BUCKET))).not.toContainEqual(
      expect.stringMatching(/partial/),
    );
  } finally {
    await s3.close();
  }
});
