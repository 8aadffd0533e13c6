// Part 2: what a customer's phone downloads to open a form link, and how soon the form shows (LCP).
import type { Browser, CDPSession, Page } from 'playwright-core';
import { launchBrowser, movePointerUntil } from '../e2e/support/browser.ts';
import { buildBaseline, gzipSize, PLAIN_COOP_PAGE, PLAIN_PAGE, serveBaseline } from './baseline-page.ts';
import { benchFirstVisit, type FirstVisit } from './first-visit.ts';
import { median, spread, type Spread } from './stats.ts';

/** Lighthouse's mobile profile: 150 ms RTT, 1.6 Mbps down, 750 kbps up, 4× CPU slowdown, a phone screen. */
export const MOBILE = { latencyMs: 150, downKbps: 1.6 * 1024, upKbps: 750, cpuSlowdown: 4 };
const PHONE = { width: 412, height: 823 };
/**
 * Loads of each page whose LCP is measured, each in a fresh context with an empty cache. One load's LCP moves by
 * ±40 % from one load to the next on this 2-core machine (a CPU slowdown emulated on a shared machine): the target
 * is on the median, and a median of five still moved by ±100 ms from run to run with the same code (2026-11-26).
 */
export const LCP_LOADS = 9;
/** Chunks that belong to the owner's side and must never load on a customer route. */
const OWNER_CODE =
  /(editor|dashboard|chart|create-page|form-list|submission-page|user-form|landing|results-page)/i;

export type Resource = { url: string; type: string; transferred: number; encoding: string; gzip: number };
export type PageLoad = { finalUrl: string; lcpMs: number | null; resources: Resource[]; shown: boolean };
export type PageWeightResult = {
  customer: PageLoad;
  baseline: PageLoad;
  /**
   * LCP over LCP_LOADS loads of each page (for ours and the bare React page, the first is the load whose resources
   * are counted); `plain` is the floor: a server-drawn heading and one question with no stylesheet or script;
   * `plainCoop` the same page with a Cross-Origin-Opener-Policy header (see PLAIN_COOP_PAGE).
   */
  lcp: {
    customer: Spread;
    baseline: Spread;
    plain: Spread;
    plainCoop: Spread;
    /** The public form's LCP ÷ the plain page's, each round's, median over the rounds. */
    customerToPlain: number;
    customerRuns: number[];
    baselineRuns: number[];
    plainRuns: number[];
    plainCoopRuns: number[];
  };
  totals: { transferred: Record<string, number>; gzip: Record<string, number> };
  baselineJsCssGzip: number;
  ourJsCssGzip: number;
  ratio: number;
  ownerChunks: string[];
  formVisible: boolean;
  firstVisit: FirstVisit;
};

async function throttle(cdp: CDPSession): Promise<void> {
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE.latencyMs,
    downloadThroughput: (MOBILE.downKbps * 1024) / 8,
    uploadThroughput: (MOBILE.upKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
}

/** Opens `url` in a fresh context with an empty cache and records every response and the LCP. */
/**
 * Opens `url` in a fresh phone context under the bench's throttling (`watch` gets its DevTools session first), waits
 * until the page has settled and shows `text`, and ends its LCP with a click on the page's blank margin, as a real
 * visit's first interaction would. Then `after` runs on the page, with the LCP read, before the context closes.
 */
async function visit<T>(
  browser: Browser,
  url: string,
  text: string,
  watch: (cdp: CDPSession) => void,
  after: (page: Page, lcpMs: number | null) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1.75, isMobile: true });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await throttle(cdp);
    watch(cdp);
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    await page
      .getByText(text)
      .first()
      .waitFor({ timeout: 30_000 })
      .catch(() => undefined);
    await page.mouse.click(2, PHONE.height - 2);
    return await after(page, await lcpOf(page));
  } finally {
    await context.close();
  }
}

async function load(
  browser: Browser,
  url: string,
  ready: (u: string) => boolean,
  text: string,
): Promise<PageLoad> {
  const seen = new Map<string, { url: string; type: string; encoding: string }>();
  const resources: Resource[] = [];
  const bodies: Promise<void>[] = [];
  const watch = (cdp: CDPSession) => {
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      seen.set(e.requestId, {
        url: e.response.url,
        type: e.type,
        encoding: String(headers['content-encoding'] ?? ''),
      });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = seen.get(e.requestId);
      if (!r) return;
      const resource: Resource = { ...r, transferred: e.encodedDataLength, gzip: 0 };
      resources.push(resource);
      bodies.push(
        cdp.send('Network.getResponseBody', { requestId: e.requestId }).then(
          (b) => void (resource.gzip = gzipSize(Buffer.from(b.body, b.base64Encoded ? 'base64' : 'utf8'))),
          () => undefined,
        ),
      );
    });
  };
  return visit(browser, url, text, watch, async (page, lcpMs) => {
    // The public form's script takes over at the customer's first interaction (ADR 032), once its small entry has
    // run: the pointer moves until it has taken over, and what it then loads is counted too.
    await movePointerUntil(page, ready, PHONE.height - 2);
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    const shown = await page
      .getByText(text)
      .first()
      .isVisible()
      .catch(() => false);
    await Promise.all(bodies);
    return { finalUrl: page.url(), lcpMs, resources, shown };
  });
}

/**
 * The page's LCP: the last entry the browser buffered (no script is added to the page to observe it, so the
 * measurement adds no work of its own to the load), or null when it recorded none within a second.
 */
const lcpOf = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number | null>((resolve) => {
        setTimeout(() => resolve(null), 1000);
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)?.startTime ?? null)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        });
      }),
  );

/** One more load of `url` for its LCP only, settled as the first load was. */
const lcpLoad = (browser: Browser, url: string, text: string) =>
  visit(
    browser,
    url,
    text,
    () => undefined,
    async (_page, lcpMs) => lcpMs,
  );

/**
 * LCP_LOADS loads of each page in rounds, one load of each page per round, so that a busy spell on this shared
 * machine falls on every page alike and their ratio compares like with like. A page's `first` load (the one whose
 * resources were counted) is its load in the first round.
 */
async function lcpRounds(browser: Browser, pages: { url: string; first?: PageLoad }[]): Promise<number[][]> {
  const runs = pages.map((page) => (page.first ? [page.first.lcpMs] : []));
  for (let round = 0; round < LCP_LOADS; round++)
    for (const [i, page] of pages.entries())
      if ((runs[i]?.length ?? 0) <= round) runs[i]?.push(await lcpLoad(browser, page.url, 'Full name'));
  return runs.map((r) => r.map((ms) => ms ?? NaN));
}

const KINDS: Record<string, string> = { Document: 'html', Script: 'js', Stylesheet: 'css' };

function totals(resources: Resource[]) {
  const transferred: Record<string, number> = { html: 0, js: 0, css: 0, other: 0 };
  const gzip: Record<string, number> = { html: 0, js: 0, css: 0, other: 0 };
  for (const r of resources) {
    const kind = KINDS[r.type] ?? 'other';
    transferred[kind] = (transferred[kind] ?? 0) + r.transferred;
    gzip[kind] = (gzip[kind] ?? 0) + r.gzip;
  }
  return { transferred, gzip };
}

export async function benchPageWeight(options: { url: string; formId: string; ownerId: string }) {
  const baselinePage = await buildBaseline();
  const baselineServer = await serveBaseline(baselinePage);
  // The full browser, as a customer's phone runs it (the journeys use its headless shell).
  const browser = await launchBrowser('/usr/bin/chromium');
  try {
    const customerUrl = `${options.url}/customer/${options.formId}/${options.ownerId}`;
    const customer = await load(browser, customerUrl, (u) => u.includes('/preview'), 'Full name');
    const baseline = await load(browser, baselineServer.url, () => true, 'Full name');
    const [customerRuns = [], baselineRuns = [], plainRuns = [], plainCoopRuns = []] = await lcpRounds(
      browser,
      [
        { url: customerUrl, first: customer },
        { url: baselineServer.url, first: baseline },
        { url: baselineServer.url + PLAIN_PAGE },
        { url: baselineServer.url + PLAIN_COOP_PAGE },
      ],
    );
    const firstVisit = await benchFirstVisit(browser, customerUrl);
    const ours = totals(customer.resources);
    const base = totals(baseline.resources);
    const ourJsCssGzip = (ours.gzip.js ?? 0) + (ours.gzip.css ?? 0);
    const baselineJsCssGzip = (base.gzip.js ?? 0) + (base.gzip.css ?? 0);
    const result: PageWeightResult = {
      customer,
      baseline,
      lcp: {
        customer: spread(customerRuns),
        baseline: spread(baselineRuns),
        plain: spread(plainRuns),
        plainCoop: spread(plainCoopRuns),
        customerToPlain: median(customerRuns.map((ms, round) => ms / (plainRuns[round] ?? NaN))),
        customerRuns,
        baselineRuns,
        plainRuns,
        plainCoopRuns,
      },
      totals: ours,
      baselineJsCssGzip,
      ourJsCssGzip,
      ratio: ourJsCssGzip / baselineJsCssGzip,
      ownerChunks: customer.resources
        .filter((r) => r.type === 'Script' || r.type === 'Stylesheet')
        .map((r) => new URL(r.url).pathname)
        .filter((path) => OWNER_CODE.test(path)),
      formVisible: customer.shown,
      firstVisit,
    };
    return result;
  } finally {
    await browser.close();
    await baselineServer.close();
  }
}
