// The S3 stand-in itself: a delete and a write in one folder at the same moment (one process's readiness probe beside
// another's instance marker, as two workers start) must not end the test process with an uncaught ENOENT.
import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, it } from 'vitest';
import { startS3TestServer, TEST_BUCKET } from './s3-test-server.ts';

it('takes a write beside a delete in the same folder, keeping the object written', async () => {
  const s3 = await startS3TestServer();
  try {
    const endpoint = new URL(s3.storageUrl().replace('s3://', 'http://')).searchParams.get('endpoint') ?? '';
    const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true });
    for (let i = 0; i < 100; i++) {
      await client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/probe`, Body: 'ready' }));
      await Promise.all([
        client.send(new DeleteObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/probe` })),
        client.send(new PutObjectCommand({ Bucket: TEST_BUCKET, Key: `p${i}/marker`, Body: 'id' })),
      ]);
    }
    const last = await fetch(`${endpoint}/${TEST_BUCKET}/p99/marker`);
    expect(await last.text()).toBe('id');
  } finally {
    await s3.close();
  }
});
