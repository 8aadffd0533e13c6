// The owner's table of responses: the answers chosen as columns (remembered per form), sorted by date, scrolling
// sideways inside its frame on a phone while the page stays put, each row opening its response; and the editor's
// Undo bar after a question is deleted, looked at and checked with axe.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { expectAccessible } from './support/accessibility.ts';
import { DESKTOP, hasChromium, PHONE, screenshotBoth, watchForErrors } from './support/browser.ts';
import { browser, call, owner, server, setUpCustomerJourneys } from './support/customer-journeys.ts';
import { ownerContext } from './support/owner.ts';

/** A contact form with an Arrival date question and `guests` responses, Guest 1 first. */
async function bookingsWith(formTitle: string, guests: number): Promise<Form> {
  let form = await call<Form>('/api/v1/length', {
    body: { formTitle, template: 'contact' },
    token: owner.token,
  });
  form = await call<Form>(`/api/text/${form._id}`, {
    body: { id: 1, name: 'Arrival', type: 'date' },
    token: owner.token,
  });
  const [name, email, , message, arrival] = form.textField.map((f) => f._id);
  for (let n = 1; n <= guests; n++) {
    const textObject = {
      [name ?? '']: `Guest ${n}`,
      [email ?? '']: `guest${n}@example.com`,
      [message ?? '']: `A rather long message from guest ${n} about the room, the view and the breakfast`,
      [arrival ?? '']: `2026-12-2${n}`,
    };
    await call(`/api/forms/${owner.id}`, { body: { formStructureId: form._id, formTitle, textObject } });
  }
  return form;
}

const headings = (page: Page) => page.locator('thead th').allInnerTexts();
const firstCells = (page: Page) => page.locator('tbody tr').first().locator('td').allInnerTexts();

describe.skipIf(!hasChromium)("the owner's table of responses", () => {
  setUpCustomerJourneys();

  it('shows the chosen answers, remembers them per form, sorts by date, scrolls inside its frame, opens a row', async () => {
    const form = await bookingsWith('Guest house', 3);
    const other = await bookingsWith('Cottage', 1);
    const context = await ownerContext(browser, owner, PHONE);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    await page.locator('tbody tr').nth(2).waitFor();

    // The first two questions until the owner chooses; then Message and Arrival instead of Email.
    expect((await headings(page)).slice(1, 4)).toEqual(['Contact Information', 'Full name', 'Email']);
    await page.getByText('Columns', { exact: true }).click();
    await page.getByRole('checkbox', { name: 'Email' }).uncheck();
    await page.getByRole('checkbox', { name: 'Message' }).check();
    await page.getByRole('checkbox', { name: 'Arrival' }).check();
    await page.getByText('Columns', { exact: true }).click();
    expect((await headings(page)).slice(1, 5)).toEqual([
      'Contact Information',
      'Full name',
      'Message',
      'Arrival',
    ]);
    // Newest first: Guest 3, arriving on the 23rd, as a date.
    expect((await firstCells(page)).slice(2, 5)).toEqual([
      'Guest 3',
      'A rather long message from guest 3 about the room, the view and the breakfast',
      '23 Dec 2026',
    ]);

    // On a phone the table scrolls inside its frame; the page itself does not scroll sideways.
    const frame = page.locator('.table-wrap');
    expect(await frame.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await frame.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    expect(await page.evaluate(() => window.scrollX)).toBe(0);
    await frame.evaluate((el) => el.scrollTo({ left: 0 }));
    // No column is squeezed to let the table fit: the contact reads on a few lines, not a letter or two a line.
    const contact = await page.locator('tbody tr').first().locator('td').nth(1).boundingBox();
    expect(contact?.width).toBeGreaterThanOrEqual(140);
    await screenshotBoth(page, 'response-table', 'phone');

    // Sorted by date: oldest first, and back.
    await page.getByRole('button', { name: /^Date/ }).click();
    await expect.poll(async () => (await firstCells(page))[2]).toBe('Guest 1');
    await page.getByRole('button', { name: /^Date/ }).click();
    await expect.poll(async () => (await firstCells(page))[2]).toBe('Guest 3');

    // Remembered after a reload, for this form only.
    await page.reload();
    await page.locator('tbody tr').nth(2).waitFor();
    expect((await headings(page)).slice(1, 5)).toEqual([
      'Contact Information',
      'Full name',
      'Message',
      'Arrival',
    ]);
    await page.goto(`${server.url}/formList?fid=${other._id}`);
    await page.locator('tbody tr').first().waitFor();
    expect((await headings(page)).slice(1, 4)).toEqual(['Contact Information', 'Full name', 'Email']);

    // A row opens its response, wherever on the row the owner taps.
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    await page.locator('tbody tr').first().getByText('23 Dec 2026').click();
    await page.waitForURL(/\/submitedForm\//);
    await page.getByRole('heading', { name: 'Guest house' }).waitFor();
    expect(await page.locator('.answers').innerText()).toContain('Guest 3');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the Undo bar after a question is deleted, whole at both widths, and takes the question back', async () => {
    const form = await bookingsWith('Retreat', 0);
    const context = await ownerContext(browser, owner, DESKTOP);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/makeForms?fid=${form._id}`);
    await page.getByRole('button', { name: 'Delete question Message' }).click();
    const bar = page.locator('.undo-toast');
    await bar.getByText('Question ‘Message’ deleted').waitFor();
    // Focus on the bar holds it, however slowly the machine takes the pictures.
    await bar.getByRole('button', { name: 'Undo' }).focus();
    // The bar floats over the page: looked at in the window as the owner sees it, not in a full-page picture.
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      const path = fileURLToPath(new URL(`./screenshots/editor-undo-bar-${size.width}.png`, import.meta.url));
      await page.screenshot({ path });
      await expectAccessible(page, `editor-undo-bar at ${size.width} px`);
    }
    const box = await bar.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    // Its words on one line beside the button, not a narrow column of them.
    const lines = await bar.locator('span').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBe(1);
    await bar.getByRole('button', { name: 'Undo' }).click();
    await bar.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete question Message' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
