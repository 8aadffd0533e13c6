// A customer sent back to fix answers reaches each question with the keyboard and reads its whole message: none of
// it is under the sticky bar at the bottom of a phone screen, a choice group's neither; where scripts run, each message
// goes as its question is fixed (issue 37, the customer's item 1).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { DESKTOP, hasChromium, newPage, PHONE, screenshot } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  retreatBooking,
  owner,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

setUpCustomerJourneys();

/** Enough required questions that the later ones start below the bar on a phone. */
async function createForm(): Promise<Form> {
  const form = await call<Form>('/api/v1/length', {
    body: { formTitle: 'Homestay booking' },
    token: owner.token,
  });
  let latest = form;
  for (const name of [
    'Full name',
    'Email address',
    'Home town',
    'Arrival date',
    'Guests',
    'Questions for us',
  ]) {
    const type = name === 'Questions for us' ? 'textarea' : 'text';
    latest = await call<Form>(`/api/text/${form._id}`, {
      body: { id: 1, name, type, required: true },
      token: owner.token,
    });
  }
  return latest;
}

/** How far the focused control's message reaches under the sticky bar (0 or less: all of it above the bar). */
const underTheBar = (page: Page) =>
  page.evaluate(() => {
    const control = document.activeElement;
    const message = document.getElementById(
      control?.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '',
    );
    const bar = document.querySelector('.fill-bar');
    if (!message || !bar) return null;
    return message.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
  });

/** The page as sent back, looked at where scripts may run (measuring needs them), without the app's script. */
async function sentBack(page: Page): Promise<Page> {
  const html = (await page.content()).replace(/<script type="module"[^>]*>[^<]*<\/script>/g, '');
  const sent = await newPage(browser, PHONE);
  await sent.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  await sent.goto(page.url());
  return sent;
}

describe.skipIf(!hasChromium)('answers to fix, on a phone', () => {
  it('shows every question’s message above the sticky bar as the customer tabs through them', async () => {
    const form = await createForm();
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(customerLink(form));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: '6 answers need your attention' }).waitFor();
    const sent = await sentBack(page);
    await sent.getByLabel('Full name').focus();
    await sent.evaluate(() => window.scrollTo(0, 0));
    for (const name of ['Email address', 'Home town', 'Arrival date', 'Guests', 'Questions for us']) {
      await sent.keyboard.press('Tab');
      expect(await sent.evaluate(() => document.activeElement?.id)).toBe(
        await sent.getByLabel(name).getAttribute('id'),
      );
      expect(await underTheBar(sent), name).toBeLessThanOrEqual(0);
    }
    await screenshot(sent, 'fill-errors-clear-of-bar');
    await sent.close();
    await context.close();
  });

  it('shows a radio or checkbox group’s whole message above the sticky bar as the keyboard reaches the group', async () => {
    const form = await retreatBooking();
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(customerLink(form));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: '5 answers need your attention' }).waitFor();
    const sent = await sentBack(page);
    await sent.getByLabel('Home town').focus();
    await sent.evaluate(() => window.scrollTo(0, 0));
    for (const group of ['Room', 'Activities']) {
      await sent.keyboard.press('Tab');
      const shown = await sent.evaluate(() => {
        const fieldset = document.activeElement?.closest('fieldset');
        const message = document.getElementById(fieldset?.getAttribute('aria-describedby') ?? '');
        const bar = document.querySelector('.fill-bar');
        if (!fieldset || !message || !bar) return null;
        const box = message.getBoundingClientRect();
        return {
          group: fieldset.textContent,
          top: box.top,
          under: box.bottom - bar.getBoundingClientRect().top,
        };
      });
      expect(shown?.group, group).toContain(group);
      expect(shown?.top, group).toBeGreaterThanOrEqual(0);
      expect(shown?.under, group).toBeLessThanOrEqual(0);
      await screenshot(sent, 'nojs-group-error-clear-of-bar');
    }
    // The whole page at a desktop's width, scrolled to the end so the sticky bar is drawn where it rests.
    await sent.setViewportSize(DESKTOP);
    await sent.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await screenshot(sent, 'nojs-group-error-clear-of-bar');
    await sent.close();
    await context.close();
  });

  it('clears each message as its question is fixed on the page sent back, where scripts run', async () => {
    const form = await formWith('Reading group', [
      { id: 1, name: 'Full name', type: 'text', required: true },
      { id: 1, name: 'Email address', type: 'email', required: true },
      { id: 3, name: 'Meeting day', options: [{ value: 'Monday' }, { value: 'Friday' }], required: true },
    ]);
    const page = await newPage(browser, PHONE);
    // The app's script never arrives: Submit posts the page the server drew, as before a slow phone's script runs.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(customerLink(form));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: '3 answers need your attention' }).waitFor();
    const bar = page.locator('.fill-bar [role="alert"]');
    expect(await bar.textContent()).toBe('3 answers need your attention.');

    await page.getByLabel('Full name').fill('Asha Rao');
    await page.getByRole('heading', { name: '2 answers need your attention' }).waitFor();
    expect(await bar.textContent()).toBe('2 answers need your attention.');
    expect(await page.getByLabel('Full name').getAttribute('aria-invalid')).toBeNull();
    expect(await page.getByLabel('Full name').getAttribute('aria-describedby')).toBeNull();
    expect(await page.getByRole('link', { name: /^Full name/ }).count()).toBe(0);
    expect(await page.locator('.fill-error').filter({ hasText: 'This question is required' }).count()).toBe(
      1,
    );

    await page.getByRole('radio', { name: 'Friday' }).check();
    await page.getByRole('heading', { name: 'One answer needs your attention' }).waitFor();
    expect(await page.locator('.fill-error').count()).toBe(1);
    expect(await page.getByText('Choose an option').count()).toBe(0);
    await page.getByLabel('Email address').fill('asha@example.com');
    await page.locator('.fill-summary').waitFor({ state: 'detached' });
    expect(await bar.textContent()).toBe('');
    expect(await page.locator('.fill-error').filter({ hasText: 'This question is required' }).count()).toBe(
      0,
    );
    expect(await page.title()).toBe('Reading group · Easy Form');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await page.close();
  });
});
