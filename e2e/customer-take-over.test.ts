// The customer's page is the same before and after its script takes over (issue 37, the customer's item 1): the form
// the server drew and the React page that replaces it draw the same step, the same questions and the same buttons,
// so nothing moves under the customer's finger (no layout shift) and Submit never turns into Next.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { MORE_KIND_QUESTIONS } from '../src/server/testing/more-kind-questions.ts';
import { DESKTOP, hasChromium, movePointerUntil, newPage, PHONE, watchForErrors } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  owner,
  screenshotAt,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

setUpCustomerJourneys();

const QUESTIONS = [
  { id: 1, name: 'Full name', type: 'text', required: true },
  { id: 1, name: 'Email', type: 'email', required: true },
  { id: 3, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }], required: true },
  { id: 4, name: 'Extras', options: [{ value: 'Breakfast' }, { value: 'Parking' }] },
];

/** Every layout shift of the page from its first paint on, as the browser reports them (CLS's entries). */
function recordShifts(page: Page) {
  return page.addInitScript(() => {
    const shifts: number[] = [];
    (window as unknown as { shifts: number[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) shifts.push((entry as unknown as { value: number }).value);
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift the page has had so far, after two frames so that the last one is reported. */
const shiftSoFar = (page: Page) =>
  page.evaluate(async () => {
    for (let i = 0; i < 2; i++) await new Promise((done) => requestAnimationFrame(() => done(null)));
    return (window as unknown as { shifts: number[] }).shifts.reduce((sum, value) => sum + value, 0);
  });

/** The names of the buttons (and button-like links) in the bar at the bottom of the form. */
const barButtons = (page: Page) =>
  page
    .locator('.fill-bar-actions')
    .locator('button, a')
    .evaluateAll((all) => all.map((element) => (element as HTMLElement).innerText.trim()));

/** The step line above the title, or null when the page has none. */
const stepLine = (page: Page) =>
  page.evaluate(() => document.querySelector('.fill-step')?.textContent ?? null);

/** Where the first answer's box is on the page (the place the customer's finger goes first). */
const firstAnswerBox = (page: Page) =>
  page
    .locator('.fill-form .fill-card')
    .locator('input:not([type=hidden]), select, textarea')
    .first()
    .boundingBox();

/** Opens the form's link, checks the page the server drew, lets the script take over, and checks it again. */
async function acrossTakeOver(form: Form, viewport: { width: number; height: number }, buttons: string[]) {
  const page = await newPage(browser, viewport);
  const errors = watchForErrors(page);
  await recordShifts(page);
  await page.goto(customerLink(form));
  await page.getByRole('heading', { name: form.formTitle, level: 1 }).waitFor();
  const drawn = {
    buttons: await barButtons(page),
    step: await stepLine(page),
    firstAnswer: await firstAnswerBox(page),
  };
  expect(drawn.buttons).toEqual(buttons);
  const before = await shiftSoFar(page);
  // The script takes over at the first pointer move (ADR 032); the address then reads /preview.
  const shown = await movePointerUntil(page, (url) => /\/preview$/.test(new URL(url).pathname), 1);
  expect(shown).toBe(true);
  expect(await shiftSoFar(page)).toBe(before);
  expect(before).toBe(0);
  // The browser leaves a shift right after the pointer moved out of its count: the first answer's box says it.
  expect({
    buttons: await barButtons(page),
    step: await stepLine(page),
    firstAnswer: await firstAnswerBox(page),
  }).toEqual(drawn);
  expect(errors).toEqual([]);
  // Looked at before and after (screenshots move the page about, so not in the page measured above).
  const look = await newPage(browser, viewport);
  await look.goto(customerLink(form));
  await look.getByRole('heading', { name: form.formTitle, level: 1 }).waitFor();
  await screenshotAt(look, `takeover-${buttons.join('-').toLowerCase()}-before`, [viewport.width]);
  await look.close();
  await screenshotAt(page, `takeover-${buttons.join('-').toLowerCase()}-after`, [viewport.width]);
  return page;
}

describe.skipIf(!hasChromium)('the script taking over the form the server drew', () => {
  it('changes nothing on a form with a file question: the same first step, Next, and no shift, on a phone and a desktop', async () => {
    const form = await formWith('Homestay booking', [
      ...QUESTIONS,
      { id: 5, name: 'ID proof', required: true },
    ]);
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await acrossTakeOver(form, viewport, ['Next']);
      expect(await stepLine(page)).toBe('Step 1 of 2 · Your answers');
      // Next with nothing typed: the messages the React page draws, looked at too.
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('3 answers need your attention.').waitFor();
      await screenshotAt(page, 'takeover-next-errors', [viewport.width]);
      await page.close();
    }
  });

  it('changes nothing on a form without files: one page, Submit, and no shift, on a phone and a desktop', async () => {
    const form = await formWith('Dinner booking', QUESTIONS);
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await acrossTakeOver(form, viewport, ['Submit']);
      expect(await stepLine(page)).toBeNull();
      await page.close();
    }
  });

  it('changes nothing on a form of the kinds beyond the first five, a grid among them: Submit, and no shift', async () => {
    const form = await formWith('Every kind', MORE_KIND_QUESTIONS);
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await acrossTakeOver(form, viewport, ['Submit']);
      // The grid's rows where the server drew them, taken over as they were.
      expect(await page.getByRole('radiogroup', { name: 'Breakfast' }).getByRole('radio').count()).toBe(3);
      await page.close();
    }
  });

  it('changes nothing on a form with page breaks: the same first page, Next, and no shift, on a phone and a desktop', async () => {
    const made = await formWith('Retreat pages', QUESTIONS);
    const [name, email, ...rest] = made.items;
    const form = await call<Form>(`/api/v1/form/${made._id}/items`, {
      method: 'PUT',
      body: {
        items: [name, email, { kind: 'page', _id: 'stay', title: 'Your stay' }, ...rest],
        version: made.version,
      },
      token: owner.token,
    });
    for (const viewport of [PHONE, DESKTOP]) {
      const page = await acrossTakeOver(form, viewport, ['Next']);
      expect(await stepLine(page)).toBe('Page 1 of 2');
      await page.close();
    }
  });
});
