import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(
    '\n*** Chromium not found at /usr/bin/chromium: browser journeys SKIPPED. ***\n' +
      '*** Run `bash .ci/run` or `apt-get install -y chromium` to run them.   ***\n',
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

/** Saves a full-page screenshot to e2e/screenshots/<name>-<width>.png for people to look at. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir('e2e/screenshots', { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `e2e/screenshots/${name}-${width}.png`, fullPage: true });
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
