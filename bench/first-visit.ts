// Part 2's two byte budgets of issue 13 that are not about the script: what the server-drawn page costs before any
// JavaScript runs, and what the offline worker adds to a customer's first visit.
import type { Browser, Page } from 'playwright-core';
import { movePointerUntil } from '../e2e/support/browser.ts';
import { gzipSize } from './baseline-page.ts';

export type Bytes = { path: string; gzip: number };
export type FirstVisit = {
  /** The page's HTML and every stylesheet it links, as a browser with JavaScript off loads them (gzip -9). */
  beforeScript: Bytes[];
  /** sw.js itself, and each file its install cached that the visit (open, take-over, first focus) did not load. */
  workerAdds: Bytes[];
  /** Every file in the worker's cache, with its size, whether the page also loaded it or not. */
  workerCached: Bytes[];
};

const total = (list: Bytes[]) => list.reduce((sum, b) => sum + b.gzip, 0);
export const sumGzip = total;

/** The gzip -9 size of `path` as the server sends it (asked for without compression, so the body is the file). */
async function sizeOf(origin: string, path: string): Promise<Bytes> {
  const response = await fetch(origin + path, { headers: { 'accept-encoding': 'identity' } });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return { path, gzip: gzipSize(new Uint8Array(await response.arrayBuffer())) };
}

async function withPage<T>(
  browser: Browser,
  options: { javaScriptEnabled: boolean },
  use: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ ...options, viewport: { width: 412, height: 823 } });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

/** With JavaScript off: the document and the stylesheets it asks for, as the browser received them. */
async function beforeScript(browser: Browser, url: string): Promise<Bytes[]> {
  return withPage(browser, { javaScriptEnabled: false }, async (page) => {
    const seen: Promise<Bytes>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'document' && type !== 'stylesheet') return;
      const path = new URL(response.url()).pathname;
      seen.push(response.body().then((body) => ({ path, gzip: gzipSize(body) })));
    });
    await page.goto(url, { waitUntil: 'load' });
    if (!(await page.getByText('Full name').first().isVisible()))
      throw new Error('the page drawn without JavaScript does not show the form');
    return Promise.all(seen);
  });
}

/**
 * A first visit with the worker allowed: open the link, let the script take over, focus the first question (which
 * loads what checking answers needs, as every customer who fills the form in does), wait for the worker to be active,
 * and read its cache. What it adds is its own script and the cached files the page never asked for.
 */
async function workerCost(browser: Browser, url: string): Promise<{ adds: Bytes[]; cached: Bytes[] }> {
  const origin = new URL(url).origin;
  const { loaded, cached } = await withPage(browser, { javaScriptEnabled: true }, async (page) => {
    const loaded = new Set<string>();
    page.on('request', (request) => {
      if (new URL(request.url()).origin === origin) loaded.add(new URL(request.url()).pathname);
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.getByText('Full name').first().waitFor();
    if (!(await movePointerUntil(page, (u) => u.includes('/preview'), 1)))
      throw new Error('the script did not take over');
    await page.getByLabel('Full name').first().focus();
    await page.waitForLoadState('networkidle');
    const cached = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      const names = (await caches.keys()).filter((n) => n.startsWith('easyform-'));
      const urls: string[] = [];
      for (const name of names)
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
      return urls;
    });
    return { loaded, cached };
  });
  if (cached.length === 0) throw new Error('the offline worker cached nothing');
  const sizes = await Promise.all(cached.map((path) => sizeOf(origin, path)));
  const worker = await sizeOf(origin, '/sw.js');
  return { adds: [worker, ...sizes.filter((b) => !loaded.has(b.path))], cached: sizes };
}

export async function benchFirstVisit(browser: Browser, customerUrl: string): Promise<FirstVisit> {
  const before = await beforeScript(browser, customerUrl);
  const { adds, cached } = await workerCost(browser, customerUrl);
  return { beforeScript: before, workerAdds: adds, workerCached: cached };
}
