import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from './accessibility.ts';
import { DISABLED_FEATURES } from './chromium-features.ts';

/**
 * The Chromium the journeys drive: Chromium's headless shell (Debian's chromium-headless-shell), the browser's own
 * engine (Blink, V8, its network and storage services) without the browser's window, whose toolbar and address-bar
 * pages it keeps warm even headless: the same journeys took a third less CPU on it (docs/decisions/034-fast-ci.md).
 * The full browser where only that is installed; E2E_CHROMIUM names another.
 */
export const CHROMIUM =
  process.env.E2E_CHROMIUM ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path)) ??
  '/usr/bin/chromium-headless-shell';
export const hasChromium = existsSync(CHROMIUM);

// Browser journeys need Debian's Chromium. Where it is missing (a developer's machine), the journeys are skipped
// with `describe.skipIf(!hasChromium)` rather than failing, and this banner says so; `.ci/run` installs it, so CI
// always runs them.
if (!hasChromium) {
  const bar = '!'.repeat(96);
  console.warn(
    `\n${bar}\n!! Chromium not found: browser journeys SKIPPED — run .ci/run or ` +
      `apt-get install chromium-headless-shell\n!! (looked for ${CHROMIUM})\n${bar}\n`,
  );
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/**
 * Chromium as the journeys drive it (the bench asks for the full browser, as people run it). Every context it opens
 * watches for Content-Security-Policy violations, which e2e/support/no-csp-violations.ts turns into a failed journey:
 * the journeys run under the real policy, so a change that needs an inline script, an eval or a file from elsewhere
 * fails here before it fails a user.
 */
export async function launchBrowser(executablePath = CHROMIUM): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${DISABLED_FEATURES.join(',')}`,
    ],
  });
  // browser.newPage() goes through newContext() too, so no page escapes the watch.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchForCspViolations(context);
    return context;
  };
  return browser;
}

const cspViolations: string[] = [];

/** The violations seen since the last call, emptied. */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

/**
 * Collects every violation in the context's pages, their frames and their workers: the securitypolicyviolation
 * event, which says what was refused and where, and Chromium's console message, which also covers what happens
 * before a page's first script (a refused inline style in the server's HTML).
 */
async function watchForCspViolations(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__cspViolation', ({ page }, text: string) => {
    cspViolations.push(`${page.url()}: ${text}`);
  });
  await context.addInitScript(() => {
    const report = (window as unknown as { __cspViolation: (text: string) => void }).__cspViolation;
    document.addEventListener('securitypolicyviolation', (e) =>
      report(
        `${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`,
      ),
    );
  });
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) {
      cspViolations.push(`${message.page()?.url() ?? '(worker)'}: ${message.text()}`);
    }
  });
  // A worker's violations are events on the worker, and Chromium logs them only to the worker's own console. The
  // listener arrives just after the worker starts: what its very first task does is not seen (pdf.js evaluates
  // nothing at start, and the viewer tells it never to).
  context.on('page', (page) =>
    page.on('worker', (worker) => {
      worker
        .evaluate(() =>
          self.addEventListener('securitypolicyviolation', (e) =>
            console.error(
              `Content Security Policy: ${e.effectiveDirective} refused ${e.blockedURI || 'inline'} in a worker`,
            ),
          ),
        )
        .catch(() => undefined);
    }),
  );
}

/**
 * A page in a context of its own, closed with it: what browser.newPage() gives, in the form axe-core's Playwright
 * integration needs (it opens helper pages in the same context).
 */
export async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.once('close', () => void context.close().catch(() => undefined));
  return page;
}

const screenshots = fileURLToPath(new URL('../screenshots', import.meta.url));

/**
 * Whether journeys save their screenshots: on, for people to look at, unless E2E_SCREENSHOTS=off (`.ci/run`, where
 * nobody looks at them: a full-page capture costs Chromium about a second of CPU, a hundred of them a run).
 */
const SAVE_SCREENSHOTS = process.env.E2E_SCREENSHOTS !== 'off';

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>-<width>.png (gitignored) for people to look at, and checks
 * the screen as it is with axe-core against WCAG 2.1 A and AA (labels, contrast, names, landmarks): every screen we
 * look at is also a screen we hold to the accessibility rules. With E2E_SCREENSHOTS=off only the check runs.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshots, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(screenshots, `${name}-${width}.png`);
  if (SAVE_SCREENSHOTS) await page.screenshot({ path, fullPage: true });
  await expectAccessible(page, `${name} at ${width} px`);
  return path;
}

/**
 * The same screen at the phone width and the desktop width (screenshot, with axe, at each); the viewport is left at
 * the width named `last`, where the journey goes on.
 */
export async function screenshotBoth(
  page: Page,
  name: string,
  last: 'phone' | 'desktop' = 'desktop',
): Promise<void> {
  for (const size of last === 'desktop' ? [PHONE, DESKTOP] : [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await screenshot(page, name);
  }
}

/**
 * Screenshots the page at each width (360 px, the narrowest phone we support, then PHONE) and answers how far it
 * scrolls sideways at each: `{ 360: 0, 390: 0 }` when nothing sticks out. The viewport is left at the last width.
 */
export async function sideScrollAt(page: Page, name: string): Promise<Record<number, number>> {
  const widths: Record<number, number> = {};
  for (const width of [360, PHONE.width]) {
    await page.setViewportSize({ width, height: PHONE.height });
    widths[width] = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    await screenshot(page, name);
  }
  return widths;
}

/** Screenshots a screen at `viewport` (with axe); on a phone also at 360 px, where nothing may scroll sideways. */
export async function lookAtScreen(page: Page, viewport: { width: number }, name: string): Promise<void> {
  if (viewport.width === PHONE.width) expect(await sideScrollAt(page, name)).toEqual({ 360: 0, 390: 0 });
  else await screenshot(page, name);
}

/** Fails the journey on any uncaught page error or console error, as a user would see a broken page. */
export function watchForErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    ) {
      errors.push(message.text());
    }
  });
  return errors;
}

/** Errors a page logs when the test cuts the connection on purpose: failed requests, the worker's "no network" answers. */
export const unexpectedOffline = (errors: string[]) =>
  errors.filter(
    (e) =>
      !/ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_RESET|net::ERR_FAILED|FetchEvent|Failed to fetch/.test(e),
  );

/** Every console message and failed request of the page, in order, to explain a failure afterwards. */
export function recordConsole(page: Page): string[] {
  const log: string[] = [];
  page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`));
  page.on('requestfailed', (request) =>
    log.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  return log;
}

/**
 * Waits for the locator; when it never shows, fails with what the page showed and logged instead of a bare
 * timeout, so that a run that failed on a loaded machine can be understood from its output.
 */
export async function waitForOrExplain(
  page: Page,
  locator: Locator,
  log: string[],
  options: { timeout?: number } = {},
): Promise<void> {
  try {
    await locator.waitFor(options);
  } catch (error) {
    const text = await page
      .locator('body')
      .innerText({ timeout: 1_000 })
      .catch(() => '(could not read)');
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- the page showed ---\n${text}\n` +
        `--- its console ---\n${log.join('\n') || '(nothing)'}`,
    );
  }
}

/**
 * Opens a form's public link and waits until the page's script has taken over from the form the server drew: the
 * address then reads /preview (docs/api.md). Until then the page is the no-script form (ADR 024), which posts itself;
 * a journey about the script's behaviour starts here, as any customer who does not tap within the first moments.
 */
export async function openForm(page: Page, link: string): Promise<void> {
  await page.goto(link);
  // The script takes over at the customer's first touch, click, key or pointer move (ADR 032), once it has arrived
  // after the page's load: the pointer moves over the page's edge until it has.
  const shown = await movePointerUntil(page, (url) => /\/preview$/.test(new URL(url).pathname), 1);
  if (!shown) throw new Error(`the script did not take over ${link} within 30 s`);
}

/**
 * Moves the pointer to and fro by a pixel near the left edge at height `y` until the page's address satisfies
 * `reached`, for at most `timeoutMs`; whether it did.
 */
export async function movePointerUntil(
  page: Page,
  reached: (url: string) => boolean,
  y: number,
  timeoutMs = 30_000,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (let x = 1; !reached(page.url()); x = 3 - x) {
    if (Date.now() > deadline) return false;
    await page.mouse.move(x, y);
    await page.waitForURL((u) => reached(u.toString()), { timeout: 100 }).catch(() => undefined);
  }
  return true;
}

/** The time on the page's clock: Playwright's where the journey installed it (`page.clock.install()`), else the real one. */
export const pageNow = (page: Page) => page.evaluate(() => Date.now());

/**
 * For a journey about one of the page's deadlines, on the page's own clock (installed before the page loaded, and
 * running as the real one until now): moves the clock to a second short of `deadline` and holds it there while
 * `look` checks, after a real second in which a try given up too early would show, that the page still waits; then
 * lets the clock run on from the deadline. The deadline passes in the page's time; the journey does not wait it out.
 */
export async function lookJustBefore(page: Page, deadline: number, look: () => Promise<void>): Promise<void> {
  await page.clock.pauseAt(deadline - 1000);
  await page.waitForTimeout(1000);
  await look();
  await page.clock.fastForward(1000);
  await page.clock.resume();
}

/**
 * Runs `work` (a screenshot with axe, say) on a page whose clock the journey holds (`page.clock.pauseAt`), moving
 * the clock on a millisecond at a time meanwhile: axe waits on its own timers, and the page's deadlines stay far off.
 */
export async function whileClockHeld<T>(page: Page, work: () => Promise<T>): Promise<T> {
  let done = false;
  const result = work().finally(() => (done = true));
  while (!done) await page.clock.runFor(1);
  return result;
}
