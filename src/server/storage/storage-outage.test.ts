// The S3 endpoint fails while the app serves (answers 503, or is gone): an upload and a download are answered 503
// with Retry-After, never a 500 or a 400 blaming the customer's body, nothing half-stored is counted, and the log
// says what failed in one line. The endpoint is a real S3-protocol server (s3rver) behind an HTTP front on
// 127.0.0.1 that the test switches between passing requests on, answering 503, and being gone.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { setUpS3Outage } from '../testing/s3-outage-fixture.ts';
import { multipart, PDF } from '../testing/test-files.ts';

const pdf = (bytes: number) => Buffer.concat([PDF, randomBytes(bytes)]);

describe('S3 endpoint failing', () => {
  const outage = setUpS3Outage('outage');

  /** Over real HTTP, as a browser sends it: a storage failure then also breaks the request's stream. */
  const send = async (url: string, content?: Buffer) => {
    const body = content && multipart('scan.pdf', content, { type: 'application/pdf' });
    const res = await fetch(`${outage.base}${url}`, {
      method: body ? 'POST' : 'GET',
      headers: body?.headers,
      body: body?.payload as BodyInit | undefined,
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
  };
  const upload = (content: Buffer) => send(`/api/profile?formId=${outage.form._id}`, content);
  const uploadRows = async () =>
    Number((await outage.t.app.db.query<{ n: string }>('select count(*) as n from uploads'))[0]?.n);
  const expectUnavailable = (res: Awaited<ReturnType<typeof send>>) => {
    expect(res.status, res.text).toBe(503);
    expect(res.retryAfter).toBe('30');
    expect(JSON.parse(res.text)).toMatchObject({ error: { code: 'UNAVAILABLE' } });
  };

  it('answers an upload and a download 503 while S3 answers 503, stores nothing, and logs one line', async () => {
    const stored = await upload(pdf(1_000));
    expect(stored.status, stored.text).toBe(200);
    const { file } = JSON.parse(stored.text) as { file: string };
    const rows = await uploadRows();

    outage.front.set('503');
    const since = outage.log.length;
    // A small file (one PUT) and a large one (a multipart upload, whose failure breaks the request's stream too).
    expectUnavailable(await upload(pdf(1_000)));
    expectUnavailable(await upload(pdf(7 * 1024 * 1024)));
    expectUnavailable(await send(file));
    expect(await uploadRows()).toBe(rows);
    const lines = outage.log.slice(since).filter((l) => /"level":(40|50|60)/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(
        /"msg":"file storage unavailable: S3 answered HTTP 503 \(SlowDown\); answered 503"/,
      );
      expect(line).not.toMatch(/"stack"/);
    }

    outage.front.set('pass');
    expect((await upload(pdf(1_000))).status).toBe(200);
    expect((await send(file)).status).toBe(200);
  }, 60_000);

  it('answers a download 503 within 15 s while the endpoint takes requests and never answers', async () => {
    const { file } = JSON.parse((await upload(pdf(1_000))).text) as { file: string };
    outage.front.set('silent');
    const started = Date.now();
    expectUnavailable(await send(file));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(outage.log.some((l) => /file storage unavailable: .* did not answer within 15 s/.test(l))).toBe(
      true,
    );
    outage.front.set('pass');
  }, 60_000);

  it('answers them 503 while nothing answers at the endpoint', async () => {
    const { file } = JSON.parse((await upload(pdf(1_000))).text) as { file: string };
    const rows = await uploadRows();
    await outage.front.close();
    expectUnavailable(await upload(pdf(1_000)));
    expectUnavailable(await send(file));
    expect(await uploadRows()).toBe(rows);
    expect(
      outage.log.some((l) => /file storage unavailable: S3 cannot be reached: .*ECONNREFUSED/.test(l)),
    ).toBe(true);
  }, 60_000);
});
