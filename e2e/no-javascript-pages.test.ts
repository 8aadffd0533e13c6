// A customer without JavaScript fills in a form with page breaks on a phone (issue 38, item 5; ADR 024 and 042): one
// page at a time, drawn by the server, the room page only for those who need a room, a file chosen on page 2 kept to
// the end, Back and Next, and each response stored once with the answers of the pages it went through.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { PDF } from '../src/server/testing/test-files.ts';
import { DESKTOP, hasChromium, newPage, PHONE, screenshot, takeCspViolations } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  newestResponse,
  owner,
  responseIds,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

setUpCustomerJourneys();

/** Page 1: do you need a room; page 2, only for a yes: nights and an ID; page 3: an e-mail. Through PUT items. */
async function conference(): Promise<Form> {
  const form = await formWith('Conference booking', [
    { id: 3, name: 'Do you need a room?', options: [{ value: 'Yes' }, { value: 'No' }], required: true },
    { id: 1, name: 'How many nights?', type: 'text', required: true },
    { id: 5, name: 'ID proof', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
  ]);
  const [stay, nights, proof, email] = form.items;
  const items = [
    stay,
    {
      kind: 'page',
      _id: 'room',
      title: 'Your room',
      condition: { question: stay?._id, op: 'is', value: 'Yes' },
    },
    nights,
    proof,
    { kind: 'page', _id: 'contact', title: 'Contact' },
    email,
  ];
  return call<Form>(`/api/v1/form/${form._id}/items`, {
    method: 'PUT',
    token: owner.token,
    body: { items, version: form.version },
  });
}

let checker: Page;
/**
 * Waits for the page whose progress line is `line`, and checks it with axe at `widths` (screenshots when saved).
 * axe runs as a script, which the customer's context refuses, so the page as the server drew it is shown at its own
 * address in a page that runs scripts, the app's script left out: the same HTML and CSS, checked as is.
 */
/** Waits for the page `line` names: "Page 2 of 3 · Your room" is the step line and the page's title under the form's. */
async function reached(page: Page, line: string) {
  const [step = '', title] = line.split(' · ');
  await page.getByText(step, { exact: true }).waitFor();
  if (title) await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
}

async function onPage(page: Page, line: string, name: string, widths = [PHONE.width]) {
  await reached(page, line);
  const html = (await page.content()).replace(/<script type="module"[^>]*>[^<]*<\/script>/g, '');
  await checker.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  await checker.goto(page.url());
  for (const width of widths) {
    await checker.setViewportSize({ width, height: PHONE.height });
    await checker.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await screenshot(checker, name);
  }
  await checker.unrouteAll();
}
const press = (page: Page, name: 'Next' | 'Back' | 'Submit') =>
  page.getByRole('button', { name, exact: true }).click();

describe.skipIf(!hasChromium)('a customer without JavaScript on a form with pages', () => {
  it('takes both branches with Back and Next, keeping the file of page 2, each response stored once', async () => {
    const form = await conference();
    const files = await mkdtemp(join(tmpdir(), 'easyform-pages-'));
    const proof = join(files, 'passport.pdf');
    await writeFile(proof, PDF);
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    checker = await newPage(browser, PHONE);

    // The branch with a room: three pages.
    await page.goto(customerLink(form));
    await onPage(page, 'Page 1 of 2', 'no-js-pages-first');
    await page.getByRole('radio', { name: 'Yes' }).check();
    await press(page, 'Next');
    await onPage(page, 'Page 2 of 3 · Your room', 'no-js-pages-room');
    await page.getByLabel('How many nights?').fill('2');
    await page.getByLabel('ID proof').setInputFiles(proof);
    // Enter in a text field goes on, as Next does, not Back (the first button in the bar).
    await page.getByLabel('How many nights?').press('Enter');
    await onPage(page, 'Page 3 of 3 · Contact', 'no-js-pages-contact');
    expect(await page.getByRole('button', { name: 'Submit' }).count()).toBe(1);
    await page.getByLabel('Email').fill('asha@example.com');
    await press(page, 'Back');
    // The middle page again: the answer as typed and the file kept, with a way to replace it.
    await onPage(page, 'Page 2 of 3 · Your room', 'no-js-pages-room-kept', [PHONE.width, DESKTOP.width]);
    expect(await page.getByLabel('How many nights?').inputValue()).toBe('2');
    await page.getByText('Kept: passport.pdf. Choose a file only to replace it.').waitFor();
    await press(page, 'Next');
    await reached(page, 'Page 3 of 3 · Contact');
    expect(await page.getByLabel('Email').inputValue()).toBe('asha@example.com');
    await press(page, 'Submit');
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(await responseIds(form)).toHaveLength(1);
    const withRoom = await newestResponse(form);
    expect(withRoom.selectedRadio).toEqual({ 'Do you need a room?': 'Yes' });
    expect(withRoom.textObject).toEqual({ 'How many nights?': '2', Email: 'asha@example.com' });
    expect(withRoom.fileObject['ID proof']?.originalName).toBe('passport.pdf');

    // The branch without: the room page is skipped, and what was typed there before a change of mind is left out.
    await page.goto(customerLink(form));
    await page.getByRole('radio', { name: 'Yes' }).check();
    await press(page, 'Next');
    await page.getByLabel('How many nights?').fill('5');
    await press(page, 'Back');
    await page.getByText('Page 1 of 3', { exact: true }).waitFor();
    expect(await page.getByRole('radio', { name: 'Yes' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'No' }).check();
    await press(page, 'Next');
    await onPage(page, 'Page 2 of 2 · Contact', 'no-js-pages-contact-only');
    expect(await page.getByLabel('How many nights?').count()).toBe(0);
    await page.getByLabel('Email').fill('ben@example.com');
    await press(page, 'Submit');
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(await responseIds(form)).toHaveLength(2);
    const without = await newestResponse(form);
    expect(without.selectedRadio).toEqual({ 'Do you need a room?': 'No' });
    expect(without.textObject).toEqual({ Email: 'ben@example.com' });
    expect(without.fileObject).toEqual({});

    expect(takeCspViolations()).toEqual([]);
    await context.close();
    await checker.close();
    await rm(files, { recursive: true, force: true });
  });
});
