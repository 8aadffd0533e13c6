import { readdir } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { startS3TestServer } from '../src/server/testing/s3-test-server.ts';
import { throwawayDatabase } from '../src/server/testing/throwaway-database.ts';
import { apiCall } from './support/api.ts';
import { hasChromium, launchBrowser, newPage, PHONE, screenshot, watchForErrors } from './support/browser.ts';
import { createOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(50_000, 7)]);

let server: RunningServer;
let browser: Browser;

// Skipped only where Chromium is missing (support/browser.ts prints a banner saying so); .ci/run installs
// Chromium, so CI always runs this.
describe.skipIf(!hasChromium)('the app as `npm start` runs it', () => {
  beforeAll(async () => {
    // From an empty data directory, as on a new install: initdb and every migration.
    server = await startServer({ empty: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('reports itself healthy on the embedded database', async () => {
    const response = await fetch(`${server.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, db: 'pglite' });
  });

  it('opens the home page in a browser', async () => {
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.title()).toMatch(/Easy Form/);
    const health = await page.evaluate(() => fetch('/api/health').then((r) => r.json()));
    expect(health).toMatchObject({ ok: true });
    await screenshot(page, 'smoke-home');
    expect(errors).toEqual([]);
    await page.close();
  });
});

// The settings the README lists, turned on for the bundle `npm start` runs: the tests import the sources, so a setting
// that works there may still crash the bundle (prom-client's classes were lost in it, and METRICS_TOKEN stopped
// start-up). PostgreSQL, WORKERS and S3 with two processes: e2e/scale-out.test.ts, where PostgreSQL is.
describe('the app as `npm start` runs it, with its optional settings on', () => {
  it('serves metrics behind a proxy, keeps files in S3, sends mail from MAIL_FROM, with every other setting set', async () => {
    const s3 = await startS3TestServer();
    const token = 'a-metrics-token-of-32-characters';
    const withSettings = await startServer({
      env: {
        METRICS_TOKEN: token,
        TRUST_PROXY: '1',
        STORAGE_URL: s3.storageUrl('smoke'),
        MAIL_FROM: 'Forms of the Smoke Test <forms@example.org>',
        UPLOAD_MAX_BYTES: '2000000',
        UPLOAD_MAX_PIXELS: '1000000',
        BODY_MIN_BYTES_PER_SECOND: '1024',
        BODY_RATE_WINDOW_SECONDS: '20',
        FORM_TIMEZONE: 'Europe/Berlin',
        RATE_LIMIT_MULTIPLIER: '2',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        EMBEDDED_SYNC: 'off',
      },
    });
    try {
      await fetch(`${withSettings.url}/api/health`, { headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect((await fetch(`${withSettings.url}/metrics`)).status).toBe(401);
      const metrics = await fetch(`${withSettings.url}/metrics`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(metrics.status).toBe(200);
      const text = await metrics.text();
      expect(text).toMatch(/^easyform_http_requests_total\{[^}]*route="\/api\/health"[^}]*\} [1-9]/m);
      expect(text).toMatch(/^easyform_process_resident_memory_bytes \d+/m);

      // Sign-up's mail comes from MAIL_FROM.
      const owner = await createOwner(withSettings);
      const welcome = withSettings.mail.mails.find((mail) => mail.to.includes(owner.email));
      expect(welcome?.from).toBe('"Forms of the Smoke Test" <forms@example.org>');

      // An upload lands in the bucket (under the prefix), not on disk, and comes back whole.
      const created = await apiCall<Form>(withSettings, '/api/v1/length', {
        body: { formTitle: 'Settings' },
        token: owner.token,
      });
      const form = await apiCall<Form>(withSettings, `/api/text/${created._id}`, {
        body: { id: 5, name: 'Scan' },
        token: owner.token,
      });
      const body = new FormData();
      body.append('file', new Blob([PDF], { type: 'application/pdf' }), 'scan.pdf');
      const uploaded = await fetch(`${withSettings.url}/api/profile?formId=${form._id}`, {
        method: 'POST',
        body,
      });
      expect(uploaded.status, await uploaded.clone().text()).toBe(200);
      const stored = await readdir(s3.directory, { recursive: true });
      // An object of the upload's own under the prefix, not the instance marker or a readiness probe.
      const objects = stored.filter((path) => path.includes('smoke') && path.endsWith('._S3rver_object'));
      expect(objects.some((path) => !path.includes('.easyform-'))).toBe(true);
      // Over UPLOAD_MAX_BYTES: refused.
      const big = new FormData();
      big.append('file', new Blob([PDF, Buffer.alloc(2_100_000)], { type: 'application/pdf' }), 'big.pdf');
      const refused = await fetch(`${withSettings.url}/api/profile?formId=${form._id}`, {
        method: 'POST',
        body: big,
      });
      expect(refused.status).toBe(413);
    } finally {
      await withSettings.stop();
      await s3.close();
    }
  });
});

// Where PostgreSQL is (`.ci/run` sets TEST_DATABASE_URL), the same start on it: the short pass on Node 22 runs this
// file, so both engines start on every supported runtime CI runs.
const postgres = process.env.TEST_DATABASE_URL;
describe.runIf(postgres)('the app as `npm start` runs it on PostgreSQL', () => {
  it('migrates an empty database and reports itself healthy on it', async () => {
    const database = await throwawayDatabase(postgres ?? '', 'easyform_smoke');
    const onPostgres = await startServer({ env: { DATABASE_URL: database.url } });
    try {
      const response = await fetch(`${onPostgres.url}/api/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, db: 'postgres' });
    } finally {
      await onPostgres.stop();
      await database.drop();
    }
  });

  it('stops with one line naming a database that does not exist', async () => {
    const database = await throwawayDatabase(postgres ?? '', 'easyform_smoke');
    await database.drop();
    const name = new URL(database.url).pathname.slice(1);
    const failed = await startServer({ env: { DATABASE_URL: database.url } }).then(
      () => new Error('it started'),
      (error: unknown) => error as Error,
    );
    const said = failed.message.split('Its output:\n')[1] ?? '';
    // Every line JSON; beside `npm start`'s own ("The web app is up to date."), one fatal line: the refusal.
    const lines = said.split('\n').filter((line) => line.trim() !== '');
    const entries = lines.map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(entries.filter((entry) => entry.level === 60).map((entry) => entry.msg)).toEqual([
      `DATABASE_URL: database "${name}" does not exist`,
    ]);
    expect(failed.message).toMatch(/exited with 1\b/);
  });
});
