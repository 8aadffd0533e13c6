// An owner makes a form branch in the editor by keyboard alone: a page break moved into place, a condition built
// with the builder, the logic check's note on a condition no answers can meet, Try a path, and a deletion that would
// change the condition asked about first (docs/decisions/042-pages-and-conditions.md). Axe on every screen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { hasChromium, lookAtScreen, PHONE, screenshot, watchForErrors } from './support/browser.ts';
import {
  browser,
  call,
  formWith,
  owner,
  server,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';
import { signInBrowser } from './support/owner.ts';

const cardsRead = (page: Page) =>
  page
    .locator('.field-list > li')
    .evaluateAll((cards) =>
      cards.map((card) =>
        card.classList.contains('page-break-card')
          ? `page ${card.querySelector('[data-control="name"]')?.textContent ?? ''}`
          : (card.querySelector('.field-name')?.textContent ?? ''),
      ),
    );
const stored = (form: Form) => call<Form>(`/api/singleFormForEdit/${form._id}`, { token: owner.token });

/** Presses Tab until `name` has the focus (at most 40 times), as a keyboard user moves through the page. */
async function tabTo(page: Page, name: RegExp) {
  for (let i = 0; i < 40; i++) {
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      return el?.getAttribute('aria-label') ?? el?.textContent ?? '';
    });
    if (name.test(focused)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${String(name)}`);
}

/** Fills the focused rule from the keyboard: each select takes the first letters typed, Tab moves on. */
async function typeRule(page: Page, question: string, test: string, value: string) {
  for (const [i, text] of [question, test, value].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(text);
  }
}

describe.skipIf(!hasChromium)('an owner makes a form branch, by keyboard', () => {
  setUpCustomerJourneys();

  it('adds a page, builds its condition, reads the logic check, tries a path and is asked before a deletion', async () => {
    const form = await formWith('Retreat weekend', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 3, name: 'Do you need a room?', options: [{ value: 'Yes' }, { value: 'No' }], required: true },
      { id: 1, name: 'How many nights?', type: 'text', required: true },
    ]);
    const context = await browser.newContext({ viewport: PHONE });
    await signInBrowser(context, owner);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/makeForms?fid=${form._id}`);
    await page.getByRole('button', { name: 'Add page break' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => cardsRead(page)).toContain('page Page 2');
    await page.getByRole('status').getByText('All changes saved').waitFor();
    // The new break moves up above the nights question: the room page asks it.
    await page.getByRole('button', { name: "Move page break 'Page 2' up" }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => cardsRead(page))
      .toEqual(['Your name', 'Do you need a room?', 'page Page 2', 'How many nights?']);

    // The condition, chosen from the keyboard.
    await tabTo(page, /^Add condition of page 2$/);
    await page.keyboard.press('Enter');
    await typeRule(page, 'Do you', 'is', 'Yes');
    await screenshot(page, 'editor-condition-builder');
    await tabTo(page, /^Save condition$/);
    await page.keyboard.press('Enter');
    const line = 'Shown only if “Do you need a room?” is “Yes”';
    await page.getByText(line).waitFor();
    // The line shows as soon as the owner saves; the server's copy follows when the save is answered.
    const room = (await stored(form)).items.find((item) => item.kind === 'radio');
    await expect
      .poll(async () => (await stored(form)).items.find((item) => item.kind === 'page')?.condition)
      .toEqual({ question: room?._id, op: 'is', value: 'Yes' });
    await page.getByRole('button', { name: 'Edit condition of page 2' }).waitFor();
    // Focus follows the builder's closing, in the commit after the button is drawn: read until it has.
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe('Edit condition of page 2');
    // And stays there when the save is answered and the list is drawn from the server's copy.
    await page.getByRole('status').getByText('All changes saved').waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Edit condition of page 2',
    );

    // A second rule that no answer can meet with the first: the logic check says so on the page.
    await page.keyboard.press('Enter');
    await tabTo(page, /^Add a rule$/);
    await page.keyboard.press('Enter');
    // The new rule's question has the focus.
    await typeRule(page, 'Do you', 'is', 'No');
    await tabTo(page, /^Save condition$/);
    await page.keyboard.press('Enter');
    const note = page.getByText('No answers can reach page 2: its condition never holds');
    await note.waitFor();
    await page.getByText(/^Logic check: 0 problems, 1 note/).waitFor();
    await lookAtScreen(page, PHONE, 'editor-logic-check');
    // Any of the two holds for some answers: the note goes.
    await page.getByRole('button', { name: 'Edit condition of page 2' }).click();
    await page.getByRole('combobox', { name: 'Match' }).selectOption('any');
    await page.getByRole('button', { name: 'Save condition' }).click();
    await note.waitFor({ state: 'detached' });

    // Try a path: a customer who needs a room reaches page 2; one who does not, does not.
    await page.getByText('Try a path').click();
    const stay = page.getByRole('combobox', { name: 'Do you need a room?' });
    await stay.selectOption('Yes');
    await page.locator('.try-path-pages').getByText('— shown').nth(1).waitFor();
    await screenshot(page, 'editor-try-path');

    // Deleting an option the condition tests asks first, naming it; Escape keeps everything.
    await page.getByRole('button', { name: 'Remove option Yes' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Delete option “Yes”?' });
    await dialog.getByText(/Page 2: Shown only if “Do you need a room\?” is “Yes” or/).waitFor();
    await screenshot(page, 'editor-delete-asks');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Remove option Yes',
    );
    await page.keyboard.press('Enter');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Shown only if “Do you need a room?” is “No”').waitFor();
    await expect
      .poll(async () => (await stored(form)).radioField[0]?.options.map((o) => o.value))
      .toEqual(['No']);
    const after = await stored(form);
    expect(after.items.find((item) => item.kind === 'page')?.condition).toMatchObject({
      op: 'is',
      value: 'No',
    });
    expect(errors).toEqual([]);
    await context.close();
  });
});
