// The public site's menu and footer, and the login page's Terms and Privacy: each leads to a page with something to
// say, whole at 320 CSS px, and the operator's own terms where they set them.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TEMPLATES } from '../src/common/form-templates.ts';
import { apiCall } from './support/api.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  screenshotBoth,
  watchForErrors,
} from './support/browser.ts';
import { createOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let textDir: string;

const OPERATOR_TERMS = 'Harbour Homestays runs this instance.\n\nUse it only for bookings with us.';

const PAGES = [
  { link: 'Templates', heading: 'Templates', shows: 'Use this template' },
  { link: 'Integrations', heading: 'Integrations', shows: 'Easyform-Signature' },
  { link: 'Resources', heading: 'Resources', shows: 'Getting started' },
  { link: 'Support', heading: 'Support', shows: 'Report a vulnerability' },
  { link: 'Terms', heading: 'Terms of use', shows: 'Harbour Homestays runs this instance.' },
  { link: 'Privacy', heading: 'Privacy', shows: 'run by its operator' },
];

/** How far the page scrolls sideways at 320 CSS px (WCAG 1.4.10): 0 when nothing sticks out. */
async function sideScrollAt320(page: Page): Promise<number> {
  await page.setViewportSize({ width: 320, height: 700 });
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}

describe.skipIf(!hasChromium)('the public site', () => {
  beforeAll(async () => {
    textDir = await mkdtemp(join(tmpdir(), 'easyform-site-text-'));
    await writeFile(join(textDir, 'terms.txt'), OPERATOR_TERMS);
    server = await startServer({ env: { TERMS_FILE: join(textDir, 'terms.txt') } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await rm(textDir, { recursive: true, force: true });
  });

  it.each(PAGES)('leads from the footer to $heading, a page of its own', async ({ link, heading, shows }) => {
    const page = await newPage(browser, DESKTOP);
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/`);
    await page
      .getByRole('navigation', { name: 'Footer' })
      .getByRole('link', { name: link, exact: true })
      .click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    await page.getByText(shows).first().waitFor();
    expect(await page.title()).toBe(`${heading} — Easy Form`);
    expect(await page.getByText('Coming Soon').count()).toBe(0);
    await screenshotBoth(page, `site-${link.toLowerCase()}`);
    expect(await sideScrollAt320(page)).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("leads from the login page's Terms and Privacy to the operator's words", async () => {
    const page = await newPage(browser, DESKTOP);
    for (const [link, heading] of [
      ['Terms', 'Terms of use'],
      ['Privacy Policy', 'Privacy'],
    ]) {
      await page.goto(`${server.url}/login`);
      await page.getByRole('link', { name: link, exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(heading);
    }
    await page.goBack();
    await page.getByRole('link', { name: 'Terms', exact: true }).click();
    await page.getByText('Use it only for bookings with us.').waitFor();
    await page.close();
  });

  it('offers each template with its questions; using one makes the form, after the login for a visitor', async () => {
    const owner = await createOwner(server);
    const page = await newPage(browser, DESKTOP);
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/templates`);
    for (const name of ['Contact Information', 'Travel Booking Form', 'Event Booking Form'])
      await page.getByRole('heading', { name }).waitFor();
    // Each card draws a miniature of the template's first questions, as the owner's template cards do.
    for (const id of ['contact', 'travel', 'event'] as const) {
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: FORM_TEMPLATES[id].label }) });
      expect(await card.locator('.form-preview-label').allInnerTexts()).toEqual(
        FORM_TEMPLATES[id].fields.slice(0, 4).map((f) => f.name),
      );
    }
    await page.getByRole('link', { name: /^Use this template.*Travel Booking Form/ }).click();
    // Signed out: the login page first, then the form is made and opens in the editor.
    await page.waitForURL(/\/login/);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(/\/makeForms\?fid=/);
    await expect.poll(() => page.title()).toBe('Travel Booking Form · Editor — Easy Form');
    // Signed in: straight to the editor, with a second form of its own; Back does not make a third.
    await page.goto(`${server.url}/templates`);
    await page.getByRole('link', { name: /^Use this template.*Event Booking Form/ }).click();
    await page.waitForURL(/\/makeForms\?fid=/);
    await expect.poll(() => page.title()).toBe('Event Booking Form · Editor — Easy Form');
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    const forms = await apiCall<{ formTitle: string }[]>(server, '/api/v1/formStructure', {
      token: owner.token,
    });
    expect(forms.map((f) => f.formTitle).sort()).toEqual(['Event Booking Form', 'Travel Booking Form']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('keeps the template a visitor chose through sign-up and the mailed link, and makes the form at the first login', async () => {
    const email = `nila.${Date.now()}@example.com`;
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/templates`);
    await page.getByRole('link', { name: /^Use this template.*Travel Booking Form/ }).click();
    await page.waitForURL(/\/login/);
    await page.getByRole('main').getByRole('link', { name: 'Sign Up' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Nila Raman');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('first password');
    await page.getByLabel('Confirm Password', { exact: true }).fill('first password');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.getByRole('heading', { name: 'Check your Email' }).waitFor();
    // The mailed link opens in a tab of its own, as a mail client opens it.
    const link = /https?:\/\/\S+verifyEmail\?token=[\w-]+/.exec((await server.mail.waitFor(email)).text)?.[0];
    const mailed = await context.newPage();
    await mailed.goto(link ?? '');
    await mailed.getByRole('heading', { name: 'Your email has been verified' }).waitFor();
    await mailed.getByRole('link', { name: 'Log in' }).click();
    await mailed.getByLabel('Email', { exact: true }).fill(email);
    await mailed.getByLabel('Password', { exact: true }).fill('first password');
    await mailed.getByRole('button', { name: 'Log In' }).click();
    await mailed.waitForURL(/\/makeForms\?fid=/);
    await expect.poll(() => mailed.title()).toBe('Travel Booking Form · Editor — Easy Form');
    expect(errors).toEqual([]);
    await context.close();
  });
});
