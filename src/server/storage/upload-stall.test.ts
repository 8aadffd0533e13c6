// An S3 that answers an upload's requests late, but answers: the customer's file is stored, though the server held
// the body back meanwhile (one part in flight at a time) for longer than the slow-body guard's window, which counts
// only time the server spends reading. Real s3rver behind a switchable front on 127.0.0.1; the guard is shortened to
// 2,000 bytes a second over 500 ms windows, so the case takes seconds.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { createForm, createTestApp, signUpOwner, type TestApp } from '../test-app.ts';
import { multipart, PDF } from '../test-files.ts';
import { startS3TestFront, type S3TestFront } from './s3-test-front.ts';
import { startS3TestServer, type S3TestServer } from './s3-test-server.ts';
import { parseStorageUrl, type S3Location } from './storage-url.ts';

const pdf = (bytes: number) => Buffer.concat([PDF, randomBytes(bytes)]);
const LARGE = 7 * 1024 * 1024; // over one 5 MiB part: a multipart upload

describe('S3 endpoint stalling an upload', () => {
  let s3: S3TestServer;
  let front: S3TestFront;
  let t: TestApp;
  let form: Form;
  let base: string;
  const log: string[] = [];

  beforeAll(async () => {
    s3 = await startS3TestServer();
    const real = parseStorageUrl(s3.storageUrl('stall'), undefined) as S3Location;
    front = await startS3TestFront(new URL(real.endpoint ?? ''));
    t = await createTestApp({
      storage: { ...real, endpoint: front.endpoint },
      bodyMinBytesPerSecond: 2_000,
      bodyRateWindowMs: 500,
      logLevel: 'info',
      logStream: { write: (line) => void log.push(line) },
    });
    const { token } = await signUpOwner(t);
    form = await createForm(t, token);
    await t.app.inject({
      method: 'POST',
      url: `/api/text/${form._id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { id: 5, name: 'Scan' },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await front?.close().catch(() => undefined);
    await s3?.close();
  });

  /** The customer page's upload (POST /api/profile?formId=) over real HTTP; a cut connection is `closed`. */
  const upload = async (content: Buffer) => {
    const { payload, headers } = multipart('scan.pdf', content, { type: 'application/pdf' });
    const started = Date.now();
    try {
      const res = await fetch(`${base}/api/profile?formId=${form._id}`, {
        method: 'POST',
        headers,
        body: payload as BodyInit,
      });
      const text = await res.text();
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        text,
        ms: Date.now() - started,
      };
    } catch (error) {
      return { status: 'closed', retryAfter: null, text: String(error), ms: Date.now() - started };
    }
  };
  const download = async (file: string) => Buffer.from(await (await fetch(`${base}${file}`)).arrayBuffer());

  it('stores a large upload while S3 answers each request late, the body held back meanwhile not counted as slow', async () => {
    // Each request answered after 1.5 s: within the answer time, but three times the guard's window, during which
    // the server reads none of the customer's body (one part in flight at a time).
    front.set({ slowMs: 1_500 });
    const since = log.length;
    const content = pdf(LARGE);
    const res = await upload(content);
    front.set('pass');
    expect(res.status, res.text).toBe(200);
    expect(log.slice(since).join('\n')).not.toMatch(/request body too slow/);
    expect((await download((JSON.parse(res.text) as { file: string }).file)).equals(content)).toBe(true);
  }, 60_000);
});
