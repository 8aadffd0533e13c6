import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

// Browser journeys need Debian's Chromium. Where it is missing (a developer's machine), the journeys are skipped
// with `describe.skipIf(!hasChromium)` rather than failing, and this banner says so; `.ci/run` installs Chromium,
// so CI always runs them.
if (!hasChromium) {
  const bar = '!'.repeat(96);
  console.warn(
    `\n${bar}\n!! Chromium not found: browser journeys SKIPPED — run .ci/run or apt-get install chromium\n` +
      `!! (looked for ${CHROMIUM})\n${bar}\n`,
  );
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const screenshots = fileURLToPath(new URL('../screenshots', import.meta.url));

/** Saves a full-page screenshot to e2e/screenshots/<name>-<width>.png (gitignored) for people to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(screenshots, { recursive: true });
  const path = join(screenshots, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
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
