import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createForm, createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../testing/test-app.ts';
import { multipart, PDF } from '../testing/test-files.ts';

const INDEX_HTML = '<!doctype html><title>Easy Form</title><div id="root"></div>';
const CUSTOMER_HTML = '<!doctype html><title>Easy Form</title><div id="root"></div>';

let t: TestApp;
const as = ownerRequests(() => t);
let https: TestApp;
let webDir: string;
let owner: { token: string; id: string };
let form: Form;
beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'easyform-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), INDEX_HTML);
  await writeFile(join(webDir, 'customer.html'), CUSTOMER_HTML);
  await writeFile(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  t = await createTestApp({ webDir });
  https = await createTestApp({ webDir, publicUrl: 'https://forms.example.com' });
  owner = await signUpOwner(t);
  form = await createForm(t, owner.token, { template: 'travel' });
});
afterAll(async () => {
  await t?.close();
  await https?.close();
  await rm(webDir, { recursive: true, force: true });
});

const get = (url: string, app = t) => app.app.inject({ method: 'GET', url });
/** The policy as a map of directive → sources, failing if the response carries none or several. */
function policyOf(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, 'exactly one Content-Security-Policy header').toBe('string');
  return new Map(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

/** What every response carries, whatever its kind. */
function expectCommonHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  expect(res.headers['strict-transport-security']).toBeUndefined();
  expect(res.headers['x-powered-by']).toBeUndefined();
  const header = String(res.headers['content-security-policy']);
  expect(header).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes/);
}

/** An owner-side page policy: only this origin's own files, nothing inline, never framed. */
function expectPagePolicy(res: LightMyRequestResponse) {
  const policy = policyOf(res);
  expect(policy.get('default-src')).toEqual(["'none'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('style-src')).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
}

describe(`security headers on ${TEST_ENGINE}`, () => {
  it('owner pages (the SPA fallback) and their assets: the page policy, never framed', async () => {
    for (const url of ['/', '/dashboard', '/makeForms?fid=x', '/submitedForm/x', '/no/such/page']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX_HTML);
      expectCommonHeaders(res);
      expectPagePolicy(res);
    }
    const asset = await get('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expectCommonHeaders(asset);
    expectPagePolicy(asset);
  });

  it('a customer page with its form inline: framable, its one <style> allowed by hash, its data not script', async () => {
    const res = await get(`/customer/${form._id}/${owner.id}`);
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
    const policy = policyOf(res);
    expect(policy.get('frame-ancestors')).toEqual(['*']);
    expect(res.headers['x-frame-options']).toBeUndefined();
    // A framed page ignores the opener policy; at the top it would only cost a renderer of its own (ADR 014).
    expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(policy.get('script-src')).toEqual(["'self'"]);
    // The form's colours are the page's only inline style, and the policy allows exactly that text.
    const styles = [...res.body.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1] ?? '');
    expect(styles).toHaveLength(1);
    expect(res.body).not.toMatch(/\sstyle=/);
    const hash = createHash('sha256')
      .update(styles[0] ?? '')
      .digest('base64');
    expect(policy.get('style-src')).toEqual(["'self'", `'sha256-${hash}'`]);
    // The form rides as data, which no policy runs.
    expect(res.body).toContain('<script type="application/json" id="fill-form">');
  });

  it('the other customer pages are framable too; owner pages with similar paths are not', async () => {
    for (const url of [
      '/preview',
      '/fileUpload',
      '/customer/not-a-form/x',
      `/CUSTOMER/${form._id}/${owner.id}/`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(url.includes('not-a-form') ? 404 : 200);
      expectCommonHeaders(res);
      expect(policyOf(res).get('frame-ancestors'), url).toEqual(['*']);
      expect(res.headers['x-frame-options'], url).toBeUndefined();
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
    }
    for (const url of ['/correctionPurpose?fid=x', '/customer/x', '/customer/a/b/c', '/previews']) {
      const res = await get(url);
      expectPagePolicy(res);
    }
  });

  it('API answers and API errors: a policy that loads nothing, never framed', async () => {
    const answers = [
      await get('/api/health'),
      await as(owner).get('/api/v1/formStructure'),
      await get('/api/v1/nothing/here'),
      await get('/api/publicForm/not-a-uuid'),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      await get('/api/%E0%A4%A'),
      await t.app.inject({
        method: 'GET',
        url: `/api/singleFormForEdit/${form._id}`,
        headers: { authorization: 'x' },
      }),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 404, 400, 400, 400, 401]);
    for (const res of answers) {
      expectCommonHeaders(res);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('errors outside /api (a 404 for a non-GET, malformed addresses) carry the headers too', async () => {
    const answers = [
      await t.app.inject({ method: 'POST', url: '/dashboard' }),
      // A GET of a page address the router cannot decode is a page (web-app.test.ts); a POST is not.
      await t.app.inject({ method: 'POST', url: '/%E0%A4%A' }),
      await get('/files/%zz'),
    ];
    expect(answers.map((res) => res.statusCode)).toEqual([404, 400, 400]);
    for (const res of answers) {
      expectCommonHeaders(res);
      expectPagePolicy(res);
      expect(res.json().error.code).toMatch(/^[A-Z_]+$/);
    }
  });

  it('a request that is not valid HTTP (answered by Node, before any route) gets our error body and headers', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    /** Sends raw bytes, and reads the whole answer until the server closes the connection. */
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => socket.end(request));
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('close', () => resolve(Buffer.concat(chunks).toString()));
        socket.on('error', reject);
      });
    const cases = [
      [
        'GET /api/health HTTP/1.1\r\nHost: x\r\nCookie: ' + 'a'.repeat(20_000) + '\r\n\r\n',
        431,
        'The request headers are too large',
      ],
      [
        'POST /api/v1/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
        400,
        'The request is not valid HTTP',
      ],
    ] as const;
    for (const [request, status, message] of cases) {
      const answer = await raw(request);
      const [head = '', json = ''] = answer.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe(
        `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
      );
      expect(head).toMatch(/^content-security-policy: default-src 'none'; frame-ancestors 'none'$/im);
      expect(head).toMatch(/^x-content-type-options: nosniff$/im);
      expect(JSON.parse(json)).toEqual({ error: { code: 'VALIDATION_FAILED', message } });
    }
  });

  it("an uploaded file is served under its own sandbox policy, not the page's, and cannot be framed", async () => {
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/profile?formId=${form._id}`,
      ...multipart('ticket.pdf', PDF),
    });
    expect(uploaded.statusCode).toBe(200);
    const res = await get(uploaded.json<UploadResponse>().file);
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
    expect([...policyOf(res).keys()].sort()).toEqual(['default-src', 'sandbox']);
    expect(policyOf(res).get('default-src')).toEqual(["'none'"]);
    expect(policyOf(res).get('sandbox')).toEqual([]);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('Strict-Transport-Security only when PUBLIC_URL is https, then on every kind of response', async () => {
    const answers = [
      await get('/dashboard', https),
      await get('/preview', https),
      await get('/api/health', https),
      await get('/api/v1/nothing/here', https),
    ];
    for (const res of answers) {
      expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
    for (const url of ['/dashboard', '/preview', '/api/health']) {
      expect((await get(url)).headers['strict-transport-security']).toBeUndefined();
    }
  });
});
