// An owner tells forms apart and deletes the right one: response counts and previews where forms are listed, the
// Delete form dialog whole at a phone's width, the Actions menu that closes, and the create page at 320 px.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import {
  DESKTOP,
  hasChromium,
  PHONE,
  screenshot,
  screenshotBoth,
  watchForErrors,
} from './support/browser.ts';
import { browser, call, owner, server, setUpCustomerJourneys } from './support/customer-journeys.ts';
import { ownerContext } from './support/owner.ts';

/** A contact form with `responses` responses, one after another. */
async function contactFormWith(formTitle: string, responses: number): Promise<Form> {
  const form = await call<Form>('/api/v1/length', {
    body: { formTitle, template: 'contact' },
    token: owner.token,
  });
  const [name, email, , message] = form.textField.map((f) => f._id);
  for (let n = 1; n <= responses; n++) {
    const textObject = {
      [name ?? '']: `Guest ${n}`,
      [email ?? '']: `guest${n}@example.com`,
      [message ?? '']: 'Hi',
    };
    await call(`/api/forms/${owner.id}`, { body: { formStructureId: form._id, formTitle, textObject } });
  }
  return form;
}

/** The boxes inside the open dialog that stick out of it, by their text; none when the dialog holds all it says. */
const cutOffInDialog = (page: Page) =>
  page.locator('dialog[open]').evaluate((dialog) => {
    const outer = dialog.getBoundingClientRect();
    const inside = (r: DOMRect) =>
      r.left >= outer.left - 0.5 && r.right <= outer.right + 0.5 && r.top >= outer.top - 0.5;
    const sticksOut = [...dialog.querySelectorAll('h2, p, button')].filter(
      (el) => !inside(el.getBoundingClientRect()) || el.scrollWidth > el.clientWidth + 1,
    );
    const offScreen = outer.left < 0 || outer.right > window.innerWidth;
    return [...sticksOut.map((el) => el.textContent ?? ''), ...(offScreen ? ['the dialog itself'] : [])];
  });

describe.skipIf(!hasChromium)('an owner tells forms apart and deletes the right one', () => {
  setUpCustomerJourneys();

  it('asks before deleting, naming the responses, whole at 390 px, with the menu closed behind it', async () => {
    await contactFormWith('Homestay booking', 0);
    await contactFormWith('Homestay booking with a rather long name that has to wrap somewhere', 4);
    const context = await ownerContext(browser, owner, PHONE);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/dashboard`);
    const rows = page.locator('tbody tr');
    await rows.first().getByText('4 responses').waitFor();
    expect(await rows.nth(1).innerText()).toContain('0 responses');

    const actions = page.getByLabel(/^Actions for Homestay booking with/);
    // Escape closes the menu and leaves focus on its button.
    await actions.click();
    await page.getByRole('button', { name: 'Delete', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isVisible()).toBe(false);
    expect(await actions.evaluate((el) => el === document.activeElement)).toBe(true);

    await actions.click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', {
      name: 'Delete “Homestay booking with a rather long name that has to wrap somewhere” and its 4 responses?',
    });
    await dialog.waitFor();
    expect(await dialog.innerText()).toContain('This cannot be undone.');
    expect(await cutOffInDialog(page)).toEqual([]);
    // The menu it came from is closed behind it.
    expect(await page.locator('details.form-actions[open]').count()).toBe(0);
    await screenshotBoth(page, 'delete-form-dialog', 'phone');
    expect(await cutOffInDialog(page)).toEqual([]);

    // Cancel gives focus back to the menu's button; deleting, to the list's heading.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForFunction(() => document.activeElement?.tagName === 'SUMMARY');
    await actions.click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete form' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Your forms');
    expect(await rows.count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('draws each card’s first questions and its count, and fits the create page in 320 px', async () => {
    const made = await contactFormWith('Guest house', 2);
    const names = new Map(made.textField.map((f) => [f._id, f.name]));
    const context = await ownerContext(browser, owner, DESKTOP);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/createPage`);
    const recent = page.getByRole('link', { name: /^Guest house/ });
    await recent.waitFor();
    expect(await recent.innerText()).toContain('2 responses');
    // The miniature is drawn from the form's questions, not a blank rectangle.
    expect(await recent.locator('.form-preview-label').allInnerTexts()).toEqual(
      made.fieldOrder.slice(0, 4).map((q) => names.get(q._id)),
    );
    const contactCard = page.getByRole('button', { name: /^Contact Information/ });
    expect(await contactCard.locator('.form-preview-label').count()).toBeGreaterThan(0);
    await screenshotBoth(page, 'create-page-previews', 'phone');

    await page.setViewportSize({ width: 320, height: 700 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    const logOut = await page.getByRole('button', { name: 'Log Out' }).boundingBox();
    expect(logOut && logOut.x >= 0 && logOut.x + logOut.width <= 320).toBe(true);
    await screenshot(page, 'create-page-narrow');

    // Response leads to the responses received, not to the list of forms.
    await page.getByRole('link', { name: 'Response', exact: true }).click();
    await page.getByRole('heading', { name: 'Responses received' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
