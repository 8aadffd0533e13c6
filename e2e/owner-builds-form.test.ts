import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  PHONE,
  screenshot,
  sideScrollAt,
  watchForErrors,
} from './support/browser.ts';
import { createOwner, signInBrowser, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let owner: TestOwner;

const questionNames = async (page: Page) =>
  page
    .locator('.field-list .field-name')
    .evaluateAll((nodes) => nodes.map((n) => n.textContent?.trim() ?? ''));

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('an owner builds a form, shapes it, previews and shares it', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await createOwner(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates forms from blank and from every template, edits one fully, and deletes one', async () => {
    const context = await browser.newContext({
      viewport: DESKTOP,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    const errors = watchForErrors(page);

    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.getByRole('heading', { name: 'Start a new form' }).waitFor();

    for (const [card, title] of [
      ['Contact Information', 'Contact Information'],
      ['Travel Booking Form', 'Travel Booking Form'],
      ['Event Booking Form', 'Event Booking Form'],
      ['Create New', 'Untitled'],
    ] as const) {
      await page.goto(`${server.url}/createPage`);
      await page.getByRole('button', { name: new RegExp(`^${card}`) }).click();
      await page.getByRole('heading', { level: 1 }).getByText(title).waitFor();
    }
    await screenshot(page, 'editor-blank');

    // The blank form is open. Title and description are edited in place.
    await page.getByRole('button', { name: /^Form title: Untitled/ }).click();
    await page.getByRole('textbox', { name: 'Form title' }).fill('Volunteer sign-up');
    await page.getByRole('textbox', { name: 'Form title' }).press('Enter');
    await page.getByRole('button', { name: /^Form title: Volunteer sign-up/ }).waitFor();
    await page.getByRole('status').getByText('All changes saved').waitFor();

    // One question of every kind.
    const panel = page.locator('.add-field');
    const name = panel.getByLabel('New question', { exact: true });
    await name.fill('Your name');
    await panel.getByRole('switch', { name: 'Required' }).check();
    await panel.getByRole('button', { name: 'Add Text Field' }).click();
    await page.getByRole('button', { name: /^Question: Your name/ }).waitFor();

    await name.fill('Tell us about yourself');
    await panel.getByRole('button', { name: 'Paragraph' }).click();
    await page.getByRole('button', { name: /^Question: Tell us about yourself/ }).waitFor();

    for (const [button, question, options] of [
      ['Radio Button', 'Shift', ['Morning', 'Evening']],
      ['Checkbox', 'Skills', ['Cooking', 'Driving']],
      ['Dropdown', 'T-shirt size', ['S', 'M', 'L']],
    ] as const) {
      await name.fill(question);
      await panel.getByRole('button', { name: button }).click();
      for (const option of options) {
        await panel.getByLabel('New option').fill(option);
        await panel.getByLabel('New option').press('Enter');
      }
      // Blank options are ignored and a duplicate is refused with the duplicate-option alert.
      await panel.getByLabel('New option').fill('   ');
      await panel.getByRole('button', { name: 'Add option' }).click();
      await panel.getByLabel('New option').fill(options[0]);
      await panel.getByRole('button', { name: 'Add option' }).click();
      await panel.getByRole('alert').getByText('Value already exists!').waitFor();
      await panel.getByRole('button', { name: `Save ${button}` }).click();
      await page.getByRole('button', { name: new RegExp(`^Question: ${question}`) }).waitFor();
    }
    await name.fill('Photo ID');
    await panel.getByRole('button', { name: 'File' }).click();
    await page.getByRole('button', { name: /^Question: Photo ID/ }).waitFor();
    expect(await questionNames(page)).toEqual([
      'Your name',
      'Tell us about yourself',
      'Shift',
      'Skills',
      'T-shirt size',
      'Photo ID',
    ]);

    // Rename a question and an option, remove an option, reorder with the buttons, delete a question.
    await page.getByRole('button', { name: /^Question: Skills/ }).click();
    await page.getByRole('textbox', { name: 'Question', exact: true }).fill('Skills you bring');
    await page.getByRole('textbox', { name: 'Question', exact: true }).blur();
    await page.getByRole('button', { name: /^Question: Skills you bring/ }).waitFor();
    await page.getByRole('button', { name: /^Option of Shift: Evening/ }).click();
    await page.getByRole('textbox', { name: 'Option of Shift' }).fill('Night');
    await page.getByRole('textbox', { name: 'Option of Shift' }).press('Enter');
    await page.getByRole('button', { name: /^Option of Shift: Night/ }).waitFor();
    await page.getByRole('button', { name: 'Remove option L' }).click();
    await page.getByRole('button', { name: 'Remove option L' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Move Photo ID up' }).click();
    await page.getByRole('button', { name: 'Move Photo ID up' }).click();
    await expect
      .poll(() => questionNames(page))
      .toEqual([
        'Your name',
        'Tell us about yourself',
        'Shift',
        'Photo ID',
        'Skills you bring',
        'T-shirt size',
      ]);
    // A deleted question can be taken back at its place; left alone, it is deleted a few seconds later.
    const remaining = ['Your name', 'Shift', 'Photo ID', 'Skills you bring', 'T-shirt size'];
    await page.getByRole('button', { name: 'Delete question Tell us about yourself' }).click();
    await expect.poll(() => questionNames(page)).toEqual(remaining);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect
      .poll(() => questionNames(page))
      .toEqual(['Your name', 'Tell us about yourself', ...remaining.slice(1)]);
    await page.getByRole('button', { name: 'Delete question Tell us about yourself' }).click();
    await page.getByRole('button', { name: 'Undo' }).waitFor({ state: 'detached' });
    await expect.poll(() => questionNames(page)).toEqual(remaining);

    // A half-built choice question survives a reload.
    await name.fill('Dietary needs');
    await panel.getByRole('button', { name: 'Checkbox' }).click();
    await panel.getByLabel('New option').fill('Vegan');
    await panel.getByLabel('New option').press('Enter');

    // Colours, then a reload shows everything was saved on the server.
    await page.getByLabel('Choose Form Color').selectOption({ label: 'Peach Puff' });
    await page.getByLabel('Form Border').selectOption({ label: 'Blue Sapphire' });
    await page.getByRole('status').getByText('All changes saved').waitFor();
    await page.reload();
    await page.getByRole('button', { name: /^Question: Skills you bring/ }).waitFor();
    expect(await name.inputValue()).toBe('Dietary needs');
    await panel.getByText('Vegan').waitFor();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Checkbox');
    await name.fill('');
    expect(await page.getByLabel('Choose Form Color').inputValue()).toBe('#FFDAB9');
    expect(await page.getByLabel('Form Border').inputValue()).toBe('#126180');
    await screenshot(page, 'editor');

    // Copy Link puts the public link on the clipboard.
    await page.getByRole('button', { name: 'Copy Link' }).click();
    await page.getByText('Link Copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(new RegExp(`^${server.url}/customer/[0-9a-f-]{36}/${owner.id}$`));

    // Preview shows the questions with local inputs, and the corner button goes back.
    await page.getByRole('link', { name: 'Preview' }).click();
    await page.getByLabel(/^Your name/).fill('typed locally');
    expect(await page.getByRole('combobox', { name: 'T-shirt size' }).inputValue()).toBe('');
    await screenshot(page, 'preview');
    await page.getByRole('link', { name: /Back to the editor/ }).click();
    await page.getByRole('button', { name: /^Form title: Volunteer sign-up/ }).waitFor();

    // Closing the form: the editor says what that means, the link says the form is closed, the dashboard marks it.
    const saved = page.waitForResponse((r) => r.url().includes('/api/updateFormEntry/') && r.ok());
    await page.getByRole('switch', { name: 'Accepting responses' }).uncheck();
    await page.getByText('Closed: people who open the link are told').waitFor();
    await saved;
    await screenshot(page, 'editor-closed');
    const customer = await context.newPage();
    const customerErrors = watchForErrors(customer);
    await customer.goto(link);
    await customer.getByRole('heading', { name: 'This form is closed' }).waitFor();
    await customer.getByText('It is no longer accepting responses.').waitFor();
    await screenshot(customer, 'fill-closed');
    expect(customerErrors).toEqual([]);
    await customer.close();

    // The dashboard lists the four forms; delete one after confirming.
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Volunteer sign-up' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(4);
    expect(
      await page.locator('tbody tr', { hasText: 'Volunteer sign-up' }).getByText('Closed').isVisible(),
    ).toBe(true);
    expect(
      await page.locator('tbody tr', { hasText: 'Event Booking Form' }).getByText('Closed').count(),
    ).toBe(0);
    const row = page.locator('tbody tr', { hasText: 'Event Booking Form' });
    await row.getByText('Actions').click();
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete form' }).click();
    await row.waitFor({ state: 'detached' });
    expect(await page.locator('tbody tr').count()).toBe(3);
    await screenshot(page, 'dashboard');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the owner screens fit a phone', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await signInBrowser(context, owner);
    const page = await context.newPage();
    // Nothing scrolls sideways, down to the narrowest phones we support.
    await page.goto(`${server.url}/createPage`);
    await page.getByRole('heading', { name: 'Recent Forms' }).waitFor();
    expect(await sideScrollAt(page, 'create-page')).toEqual({ 360: 0, 390: 0 });
    await page.getByRole('link', { name: /Volunteer sign-up/ }).click();
    await page.getByRole('button', { name: /^Form title: Volunteer sign-up/ }).waitFor();
    expect(await sideScrollAt(page, 'editor')).toEqual({ 360: 0, 390: 0 });
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Volunteer sign-up' }).waitFor();
    expect(await sideScrollAt(page, 'dashboard')).toEqual({ 360: 0, 390: 0 });
    await context.close();
  });
});
