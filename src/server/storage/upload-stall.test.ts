// The S3 endpoint takes an upload's requests and stops answering them while a customer's file goes up: the customer
// gets 503 UNAVAILABLE with Retry-After within the answer time, not a connection cut by the slow-body guard for
// bytes the server itself stopped reading; nothing stored changes and the next upload works once S3 is back. And an
// S3 that answers slowly but within that time stores the file, though the server held the body back meanwhile for
// longer than the guard's window. Real s3rver behind a switchable front on 127.0.0.1; the answer time is shortened
// to 3 s and the guard to 2,000 bytes a second over 500 ms windows, so each case takes seconds.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setUpS3Outage } from '../testing/s3-outage-fixture.ts';
import { storedKeys } from '../testing/test-app.ts';
import { multipart, PDF } from '../testing/test-files.ts';

const pdf = (bytes: number) => Buffer.concat([PDF, randomBytes(bytes)]);
const LARGE = 7 * 1024 * 1024; // over one 5 MiB part: a multipart upload

describe('S3 endpoint stalling an upload', () => {
  const outage = setUpS3Outage('stall', {
    storageAnswerTimeoutMs: 3_000,
    bodyMinBytesPerSecond: 2_000,
    bodyRateWindowMs: 500,
  });

  /** The customer page's upload (POST /api/profile?formId=) over real HTTP; a cut connection is `closed`. */
  const upload = async (content: Buffer) => {
    const { payload, headers } = multipart('scan.pdf', content, { type: 'application/pdf' });
    const started = Date.now();
    try {
      const res = await fetch(`${outage.base}/api/profile?formId=${outage.form._id}`, {
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
  const download = async (file: string) =>
    Buffer.from(await (await fetch(`${outage.base}${file}`)).arrayBuffer());
  const uploadRows = async () =>
    Number((await outage.t.app.db.query<{ n: string }>('select count(*) as n from uploads'))[0]?.n);

  it('answers a large and a small upload 503 within the answer time while S3 takes requests and never answers', async () => {
    const kept = pdf(1_000);
    const stored = await upload(kept);
    expect(stored.status, stored.text).toBe(200);
    const { file } = JSON.parse(stored.text) as { file: string };
    const rows = await uploadRows();
    const keys = await storedKeys(outage.t);

    outage.front.set('silent');
    const since = outage.log.length;
    for (const size of [LARGE, 1_000]) {
      const res = await upload(pdf(size));
      expect(res.status, res.text).toBe(503);
      expect(res.retryAfter).toBe('30');
      expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'UNAVAILABLE' } });
      // 3 s of no progress, not the guard's windows nor the SDK's minute a request.
      expect(res.ms).toBeLessThan(10_000);
    }
    const lines = outage.log.slice(since).filter((l) => /"level":(40|50|60)/.test(l));
    expect(lines.length).toBe(2);
    for (const line of lines)
      expect(line).toMatch(
        /"msg":"file storage unavailable: http:\/\/127\.0\.0\.1:\d+ took no byte of an upload and answered none of its requests for 3 s; answered 503"/,
      );
    expect(outage.log.slice(since).join('\n')).not.toMatch(/request body too slow/);

    outage.front.set('pass');
    expect(await uploadRows()).toBe(rows);
    expect(await storedKeys(outage.t)).toEqual(keys);
    expect((await download(file)).equals(kept)).toBe(true);
    const next = pdf(LARGE);
    const again = await upload(next);
    expect(again.status, again.text).toBe(200);
    expect((await download((JSON.parse(again.text) as { file: string }).file)).equals(next)).toBe(true);
  }, 60_000);

  // Each try of a customer on an S3 that takes parts and never answers them held a 5 MiB part and a connection for
  // the SDK's request timeout (a minute a try, three tries) after its 503: a few hundred such tries in an outage fill
  // the server's memory.
  it('lets go of the part in flight at once when it answers 503 for a part S3 never answers', async () => {
    outage.front.set('silent-parts');
    const since = outage.log.length;
    // The earlier test's removals may still be open: they are sent on without the customer's request.
    const before = outage.front.open();
    const res = await upload(pdf(LARGE));
    expect(res.status, res.text).toBe(503);
    expect(outage.log.slice(since).join('\n')).toMatch(
      /took no byte of an upload and answered none of its requests/,
    );
    const answered = Date.now();
    while (outage.front.open() > before && Date.now() - answered < 5_000)
      await new Promise((r) => setTimeout(r, 50));
    expect(outage.front.open()).toBeLessThanOrEqual(before);
    outage.front.set('pass');
  }, 60_000);

  it('stores a large upload while S3 answers each request late, the body held back meanwhile not counted as slow', async () => {
    // Each request answered after 1.5 s: within the answer time, but three times the guard's window, during which
    // the server reads none of the customer's body (one part in flight at a time).
    outage.front.set({ slowMs: 1_500 });
    const since = outage.log.length;
    const content = pdf(LARGE);
    const res = await upload(content);
    outage.front.set('pass');
    expect(res.status, res.text).toBe(200);
    expect(outage.log.slice(since).join('\n')).not.toMatch(/request body too slow/);
    expect((await download((JSON.parse(res.text) as { file: string }).file)).equals(content)).toBe(true);
  }, 60_000);
});
