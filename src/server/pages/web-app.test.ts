import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { maxHeaderSize } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerRequests } from '../testing/owner-requests.ts';
import { createForm, createTestApp, signUpOwner, type TestApp } from '../testing/test-app.ts';

const CUSTOMER_HTML =
  '<!doctype html><meta name="description" content="Easy Form: build a form" /><title>Easy Form</title><script type="module" src="/assets/customer-1.js"></script><div id="root"></div>';

const LANDING_SCRIPT = 'document.documentElement.classList.add("x")';
const LANDING_CSS = '.hero{color:#123}';
const LANDING_HTML =
  `<!doctype html><html><head><title>Easy Form</title><script>${LANDING_SCRIPT}</script>` +
  '<script type="module" crossorigin src="/assets/main-1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-1.js">' +
  '<link rel="stylesheet" crossorigin href="/assets/landing-1.css"></head>' +
  '<body><div id="root"><main><h1>Forms your customers finish</h1></main></div></body></html>';

let t: TestApp;
const as = ownerRequests(() => t);
let webDir: string;
beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'easyform-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Easy Form</title><div id="root"></div>');
  await writeFile(join(webDir, 'customer.html'), CUSTOMER_HTML);
  await writeFile(join(webDir, 'landing.html'), LANDING_HTML);
  await writeFile(join(webDir, 'assets', 'landing-1.css'), LANDING_CSS);
  await writeFile(join(webDir, 'customer.html.gz'), gzipSync(CUSTOMER_HTML));
  await writeFile(join(webDir, 'assets', 'app-abc123.js'), 'console.log(1)');
  await writeFile(join(webDir, 'assets', 'app-abc123.js.gz'), gzipSync('console.log(1)'));
  t = await createTestApp({ webDir });
});
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers any page route with index.html so the client router can take over', async () => {
    for (const url of ['/login', '/updatePassword/a%40b.com', '/no/such/page', '/?next=/login']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
      if (!url.startsWith('/?')) expect(res.body).not.toContain('<h1>');
    }
  });

  it("answers '/' with the landing page the build drew, its stylesheet inlined and its one script allowed by hash", async () => {
    for (const url of ['/', '/?utm_source=mail']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const html = brotliDecompressSync(res.rawPayload).toString();
      expect(html).toContain('<h1>Forms your customers finish</h1>');
      expect(html).toContain(`<style>${LANDING_CSS}</style>`);
      // Named once more only by a disabled link, which the browser does not fetch: it tells the app's chunk loader,
      // when the app takes over, that these rules are in the page already.
      expect(html.match(/<link[^>]*landing-1\.css[^>]*>/g)).toEqual([
        '<link rel="stylesheet" href="/assets/landing-1.css" disabled>',
      ]);
      // Nothing of the app is asked for while the page loads: its entry and hints wait in the start script.
      expect(html).not.toMatch(/<script[^>]* src=|<link rel="modulepreload"/);
      const start = /<script type="module">([^<]*)<\/script>/.exec(html)?.[1] ?? '';
      expect(start).toContain('import("/assets/main-1.js")');
      expect(start).toContain('"/assets/react-1.js"');
      const policy = String(res.headers['content-security-policy']);
      const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      expect(policy).toContain(`script-src 'self' ${hash(LANDING_SCRIPT)} ${hash(start)};`);
      expect(policy).toContain(`style-src 'self' ${hash(LANDING_CSS)};`);
      // The landing page is one of the app's own pages: never framed.
      expect(policy).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the precompressed copy to a browser that accepts gzip', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe('console.log(1)');
  });

  it('answers /preview and /fileUpload with customer.html, precompressed', async () => {
    for (const url of ['/preview', '/fileUpload']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(res.rawPayload).toString()).toBe(CUSTOMER_HTML);
    }
  });

  it('answers a link to no form with a 404 page that says so, drawn without a script', async () => {
    for (const url of ['/customer/not-a-uuid/x', `/customer/${randomUUID()}/x`]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<h1>This form is no longer available</h1>');
    }
  });

  it('answers a page address the router cannot decode with our not-found page, and an API address with JSON', async () => {
    // A percent-escape that is no UTF-8 (a lone or cut byte, an encoded surrogate), between harmless characters.
    const unreserved = fc.stringMatching(/^[\w.~-]{0,12}$/);
    // What follows starts with no hex digit, which could complete a cut escape (`%E0%A4%A` + `0` is `ठ`).
    const after = fc.stringMatching(/^(?:[g-zG-Z_.~-][\w.~-]{0,11})?$/);
    const broken = fc.oneof(
      fc.constantFrom('%E0%A4%A', '%ED%A0%80', '%F0%9F', '%C0%AF', '%', '%zz', '%E0%A4'),
      fc.integer({ min: 0x80, max: 0xff }).map((byte) => `%${byte.toString(16).toUpperCase()}`),
    );
    const segment = fc.tuple(unreserved, broken, after).map((parts) => parts.join(''));
    const customer = [(s: string) => `/customer/${s}/x`, (s: string) => `/customer/${randomUUID()}/${s}`];
    const pages = [(s: string) => `/${s}`, (s: string) => `/dashboard/${s}`, (s: string) => `/preview${s}`];
    const apis = [
      (s: string) => `/api/${s}`,
      (s: string) => `/api/publicForm/${s}`,
      (s: string) => `/files/${s}`,
    ];
    await fc.assert(
      fc.asyncProperty(segment, fc.nat(), async (s, pick) => {
        const asks: [string, 'GET' | 'POST', boolean][] = [
          [customer[pick % 2]?.(s) ?? '', pick % 3 ? 'GET' : 'POST', true],
          [pages[pick % 3]?.(s) ?? '', 'GET', false],
        ];
        for (const [url, method, framable] of asks) {
          const res = await t.app.inject({ method, url, headers: { accept: 'text/html' } });
          expect(res.statusCode, url).toBe(404);
          expect(res.headers['content-type'], url).toMatch(/^text\/html/);
          expect(res.body, url).toContain(
            framable ? '<h1>This form is no longer available</h1>' : '<h1>Page not found</h1>',
          );
          // Drawn whole on the server: no script to take over an address it could not read either.
          expect(res.body, url).not.toContain('<script');
          expect(res.headers['x-content-type-options'], url).toBe('nosniff');
          const policy = String(res.headers['content-security-policy']);
          expect(policy, url).toContain("default-src 'none'");
          expect(policy, url).toContain(framable ? 'frame-ancestors *' : "frame-ancestors 'none'");
          expect(res.headers['x-frame-options'], url).toBe(framable ? undefined : 'DENY');
        }
        // The API's and the signed files' answers stay JSON, whatever the client prefers.
        const api = await t.app.inject({ url: apis[pick % 3]?.(s) ?? '', headers: { accept: 'text/html' } });
        expect(api.statusCode).toBe(400);
        expect(api.json()).toEqual({ error: { code: 'VALIDATION_FAILED', message: 'Not a valid address' } });
      }),
      { numRuns: 40 },
    );
    // Any other method is a page only when it asks for one (a browser's form post does).
    for (const accept of ['text/html', 'application/json']) {
      const res = await t.app.inject({ method: 'POST', url: '/dashboard/%E0%A4%A', headers: { accept } });
      expect(res.headers['content-type'], accept).toMatch(
        accept === 'text/html' ? /^text\/html/ : /^application\/json/,
      );
    }
  });

  it("answers an id longer than any with its route's own refusal: JSON naming it for the API, the page for a link", async () => {
    // Past the router's old 100-character limit, made of what a link may carry.
    const long = fc
      .array(fc.constantFrom('a', '0', '-', '.', '_', '~', '%C3%A9', '%20'), {
        minLength: 101,
        maxLength: 3000,
      })
      .map((parts) => parts.join(''));
    await fc.assert(
      fc.asyncProperty(long, fc.boolean(), async (id, inFormPart) => {
        const api = await t.app.inject({ url: `/api/publicForm/${id}` });
        expect(api.statusCode).toBe(400);
        expect(api.json()).toEqual({
          error: { code: 'VALIDATION_FAILED', message: 'fid: Not a valid form id' },
        });
        const file = await t.app.inject({ url: `/files/${id}` });
        expect(file.statusCode).toBe(400);
        expect(file.json().error.message).toMatch(/^uploadId: /);
        // The form a page without JavaScript posts: its answer is a page too.
        const url = inFormPart ? `/customer/${id}/${randomUUID()}` : `/customer/${randomUUID()}/${id}`;
        const page = await t.app.inject({ method: 'POST', url, headers: { accept: 'text/html' } });
        expect(page.statusCode).toBe(404);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.body).toContain('<h1>This form is no longer available</h1>');
        expect(page.headers['x-content-type-options']).toBe('nosniff');
      }),
      // Each run posts once: under the 60 posts a minute one address may send.
      { numRuns: 20 },
    );
    // Longer than any request line Node accepts (only inject() can send it): still our answers, not the router's.
    const huge = 'a'.repeat(maxHeaderSize + 1);
    const api = await t.app.inject({ method: 'POST', url: `/api/forms/${huge}` });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found' } });
    const page = await t.app.inject({ method: 'POST', url: `/customer/${randomUUID()}/${huge}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('<h1>This form is no longer available</h1>');
  });

  it("counts an open of a customer link as one of the form's views, and a HEAD or a closed form as none", async () => {
    const owner = await signUpOwner(t);
    const created = await as(owner).post('/api/v1/length', {});
    const fid = created.json<{ _id: string }>()._id;
    const viewsNow = async () =>
      (await as(owner).get(`/api/formResults/${fid}`)).json<{
        views: number;
      }>().views;
    for (const method of ['GET', 'GET', 'HEAD'] as const) {
      expect((await t.app.inject({ method, url: `/customer/${fid}/${owner.id}` })).statusCode).toBe(200);
    }
    expect(await viewsNow()).toBe(2);
    expect(
      (await as(owner).put(`/api/updateFormEntry/${fid}`, { acceptingResponses: false })).statusCode,
    ).toBe(200);
    await t.app.inject({ method: 'GET', url: `/customer/${fid}/${owner.id}` });
    expect(await viewsNow()).toBe(2);
  });

  it('puts the form of a customer link in its page: the API answer, its title and its heading', async () => {
    const owner = await signUpOwner(t);
    const title = 'Trip </script><script>alert(1)</script> & "more" $&';
    const created = await as(owner).post('/api/v1/length', { formTitle: title, description: 'Line <one>' });
    const fid = created.json<{ _id: string }>()._id;
    const api = await t.app.inject({ method: 'GET', url: `/api/publicForm/${fid}` });

    const res = await t.app.inject({
      method: 'GET',
      url: `/customer/${fid}/${owner.id}`,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(res.rawPayload).toString();
    // Nothing in the title closes the data's script element or opens another.
    expect(html.match(/<script/g)).toHaveLength(2);
    const data = /<script type="application\/json" id="fill-form">([^<]*)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(data ?? '')).toEqual(api.json());
    expect(html).toContain(
      '<title>Trip &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot; $&amp; · Easy Form</title>',
    );
    expect(html).toContain(
      '<h1 dir="auto">Trip &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;more&quot; $&amp;</h1>',
    );
    expect(html).toContain('<p class="fill-description" dir="auto">Line &lt;one&gt;</p>');
    // Search results and link previews show the form's own description.
    expect(html).toContain('<meta name="description" content="Line &lt;one&gt;" />');
  });

  it("answers a link whose owner part is not the form's owner with the 404 page, as its Submit would", async () => {
    const owner = await signUpOwner(t);
    const fid = (await createForm(t, owner.token, { formTitle: 'Owner part' }))._id;
    for (const other of ['notauuid', randomUUID(), (await signUpOwner(t)).id]) {
      const res = await t.app.inject({ method: 'GET', url: `/customer/${fid}/${other}` });
      expect(res.statusCode, other).toBe(404);
      expect(res.body).toContain('<h1>This form is no longer available</h1>');
    }
    // The owner's id in capitals is the same id: the page posts to the form's own link.
    const upper = await t.app.inject({ method: 'GET', url: `/customer/${fid}/${owner.id.toUpperCase()}` });
    expect(upper.statusCode).toBe(200);
    expect(upper.body).toContain(`action="/customer/${fid}/${owner.id}"`);
  });

  it('answers a page address holding a NUL or a broken character with the page, not JSON', async () => {
    const owner = await signUpOwner(t);
    const fid = (await createForm(t, owner.token, { formTitle: 'Tracked link' }))._id;
    for (const [url, status] of [
      [`/customer/${fid}/${owner.id}?ref=%00`, 200],
      [`/customer/${fid}/${owner.id}?utm=%ED%A0%80`, 200],
      ['/preview?x=%00', 200],
      ['/login?next=%00', 200],
      [`/customer/${fid}%00/${owner.id}`, 404],
      [`/customer/${fid}/${'a'.repeat(4100)}`, 404],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/nothing?x=%00' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
  });

  it('answers a hashed asset that does not exist with a 404, not the app page (a stale chunk after a deploy)', async () => {
    for (const url of ['/assets/index-doesnotexist.js', '/assets/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).not.toMatch(/text\/html/);
    }
  });

  it('keeps unknown API paths as JSON 404s', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
  });
});
