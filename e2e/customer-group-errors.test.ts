// A customer fixing answers with the keyboard on a phone reads a radio or checkbox group's whole message as they
// reach the group: the message under its last option is not left under the sticky bar (issue 37, the customer's
// item 1). The React page, after the script took over; the page drawn without it: customer-errors-in-view.test.ts.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, newPage, openForm, PHONE, screenshot } from './support/browser.ts';
import { browser, customerLink, retreatBooking, setUpCustomerJourneys } from './support/customer-journeys.ts';

setUpCustomerJourneys();

/** How far the message of the group holding the focus reaches under the sticky bar (0 or less: clear of it). */
const groupMessageUnderBar = (page: Page) =>
  page.evaluate(() => {
    const group = document.activeElement?.closest('fieldset');
    const message = document.getElementById(group?.getAttribute('aria-describedby') ?? '');
    const bar = document.querySelector('.fill-bar');
    if (!message || !bar) return null;
    return message.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
  });

describe.skipIf(!hasChromium)('a choice group to fix, on a phone', () => {
  it('brings the group’s message above the sticky bar when the keyboard reaches the group', async () => {
    const form = await retreatBooking();
    const page = await newPage(browser, PHONE);
    await openForm(page, customerLink(form));
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('5 answers need your attention.').waitFor();
    for (const name of ['Email address', 'Home town']) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(
        await page.getByLabel(name).getAttribute('id'),
      );
    }
    for (const group of ['Room', 'Activities']) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('fieldset')?.textContent)).toContain(
        group,
      );
      expect(await groupMessageUnderBar(page), group).toBeLessThanOrEqual(0);
    }
    await screenshot(page, 'fill-group-error-clear-of-bar');
    await page.close();
  });
});
