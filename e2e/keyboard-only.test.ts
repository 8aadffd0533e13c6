// The owner's flow with the keyboard alone: after every action focus is somewhere on the page, never on its body
// (WCAG 2.4.3), and each screen names itself in the tab's title (WCAG 2.4.2).
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launchBrowser, newPage, PHONE, screenshot } from './support/browser.ts';
import { createOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;

/**
 * Presses Tab until `target` has focus (at most 80 presses). Targets are found as a screen reader names them (a role
 * and its accessible name, or a field's label), not by the text they start with: a card's picture of its questions
 * comes before its name on screen but is hidden from the accessibility tree.
 */
async function tabTo(page: Page, target: Locator): Promise<void> {
  await target.waitFor();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${String(target)}`);
}

/** Focus is on an element of the page, not its body; the tab's title is the screen's own. */
async function expectSettled(page: Page, title: string | RegExp): Promise<void> {
  await expect.poll(() => page.title()).toMatch(title);
  await expect.poll(() => page.evaluate(() => document.activeElement !== document.body)).toBe(true);
}

describe.skipIf(!hasChromium)('the owner, with the keyboard alone', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('logs in, starts a form from a template, edits it and opens its settings', async () => {
    const owner = await createOwner(server);
    const page = await newPage(browser, DESKTOP);
    await page.goto(`${server.url}/login`);
    await expect.poll(() => page.title()).toBe('Log in — Easy Form');
    await tabTo(page, page.getByLabel('Email', { exact: true }));
    await page.keyboard.type(owner.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(owner.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Start a new form' }).waitFor();
    await expectSettled(page, 'Create a form — Easy Form');
    await screenshot(page, 'keyboard-create-page');
    // The owner's bar on a phone keeps the product's name, and at 320 CSS px nothing scrolls sideways (WCAG 1.4.10).
    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    expect(await page.getByRole('button', { name: 'Log Out' }).isVisible()).toBe(true);
    await page.setViewportSize(PHONE);
    await screenshot(page, 'owner-header-phone');
    expect((await page.locator('.brand-name').boundingBox())?.width).toBeGreaterThan(20);
    await page.setViewportSize(DESKTOP);

    await tabTo(page, page.getByRole('button', { name: /^Contact Information\b/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/makeForms/);
    await expectSettled(page, 'Contact Information · Editor — Easy Form');

    await tabTo(page, page.getByRole('link', { name: 'Settings', exact: true }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await expectSettled(page, 'Contact Information · Settings — Easy Form');
    const fid = new URL(page.url()).searchParams.get('fid') ?? '';

    // The customer opens the link, fills the form and sends it, with the keyboard alone.
    const customer = await newPage(browser, DESKTOP);
    await customer.goto(`${server.url}/customer/${fid}/${owner.id}`);
    await expect.poll(() => customer.title()).toMatch(/Contact Information/);
    await tabTo(customer, customer.getByLabel('Full name'));
    await customer.keyboard.type('Meera Nair');
    await expectSettled(customer, /Contact Information/);
    await tabTo(customer, customer.getByLabel('Email'));
    await customer.keyboard.type('meera@example.com');
    await tabTo(customer, customer.getByLabel('Message'));
    await customer.keyboard.type('Two rooms for the first week of March, please.');
    await expectSettled(customer, /Contact Information/);
    await tabTo(customer, customer.getByRole('button', { name: 'Submit' }));
    await customer.keyboard.press('Enter');
    await customer.getByText('Submitted successfully').waitFor();
    await expectSettled(customer, /Contact Information/);
    await customer.close();

    // Back to the owner: the form's responses, with the one that just arrived (a fresh load of the address starts at
    // the top of the page, as the browser does, and Tab goes on from there).
    await page.goto(`${server.url}/formList?fid=${fid}`);
    await expect.poll(() => page.title()).toBe('Contact Information · Responses — Easy Form');
    await tabTo(page, page.getByRole('link', { name: /^Meera Nair\b/ }));
    await page.keyboard.press('Enter');
    await page.waitForURL(/submitedForm/);
    await expectSettled(page, 'Contact Information · Response — Easy Form');
    await page.close();
  });
});
