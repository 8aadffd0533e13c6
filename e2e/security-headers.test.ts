import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/server/testing/free-port.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  recordConsole,
  takeCspViolations,
  waitForOrExplain,
  watchForErrors,
} from './support/browser.ts';
import { createOwner, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let owner: TestOwner;
let formId: string;
let formColor: string;

/** Another site (another port is another origin), serving one page: an owner's own page that embeds their form. */
let embedder: Server;
let embedderUrl: string;
const embeddingPage = () =>
  '<!doctype html><html lang="en"><title>Our travel agency</title><main><h1>Book a trip</h1>' +
  `<iframe title="Booking form" src="${server.url}/customer/${formId}/${owner.id}" width="900" height="600"></iframe>` +
  `<iframe title="Dashboard" src="${server.url}/dashboard" width="900" height="200"></iframe></main>`;

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('the pages under their security headers (docs/decisions/014)', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await createOwner(server);
    const created = await fetch(`${server.url}/api/v1/length`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ template: 'travel' }),
    });
    ({ _id: formId, color: formColor } = (await created.json()) as { _id: string; color: string });
    const port = await freePort();
    embedder = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(embeddingPage());
    });
    await new Promise<void>((resolve) => embedder.listen(port, '127.0.0.1', resolve));
    embedderUrl = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => embedder?.close(resolve));
    await browser?.close();
    await server?.stop();
  });

  it('shows a form embedded in another site, and refuses to show an owner page there', async () => {
    const page = await newPage(browser, DESKTOP);
    const errors = watchForErrors(page);
    const log = recordConsole(page);
    await page.goto(`${embedderUrl}/book`);
    const form = page.frameLocator('iframe[title="Booking form"]');
    await waitForOrExplain(page, form.getByRole('heading', { level: 1 }), log);
    // A question to answer: the page's script ran inside the frame.
    await form.getByRole('textbox').first().waitFor();
    // Not the screenshot() helper: axe cannot look into the refused frame.
    await page.screenshot({
      path: fileURLToPath(new URL('screenshots/embedded-form-1280.png', import.meta.url)),
    });

    // The owner's page never loads: Chromium refuses it for its frame-ancestors, and says so.
    await expect.poll(() => takeCspViolations().join('\n')).toMatch(/frame-ancestors 'none'/);
    expect(await page.frameLocator('iframe[title="Dashboard"]').locator('#root').count()).toBe(0);
    expect(errors.filter((e) => !/frame-ancestors 'none'/.test(e))).toEqual([]);
    // Nothing else was refused: the embedded form runs under its policy untouched.
    expect(takeCspViolations()).toEqual([]);
    await page.close();
  });

  it("draws the form's heading in its colours before any script runs, its one inline style allowed by hash", async () => {
    const context = await browser.newContext({ viewport: DESKTOP, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/customer/${formId}/${owner.id}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    const background = await page
      .locator('.fill-page')
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(formColor.slice(i, i + 2), 16));
    expect(background).toBe(`rgb(${r}, ${g}, ${b})`);
    await page.screenshot({
      path: fileURLToPath(new URL('screenshots/customer-before-script-1280.png', import.meta.url)),
    });
    await context.close();
  });
});
