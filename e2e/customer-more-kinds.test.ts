// A customer answers one question of each kind beyond the product's five on a phone (issue 39): a number with its
// unit, a star rating, an NPS scale and a choice grid operated by the keyboard alone, a consent box, a time and a web address,
// around a statement, from a link that fills a hidden field and prefills the web address; once with scripts off (the page the server draws, posted as a browser posts it) and once with
// them on (the React page after its take-over). The owner then reads them in Results. axe on every screen.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import type { FormResults } from '../src/common/results.ts';
import { MORE_KIND_QUESTIONS } from '../src/server/testing/more-kind-questions.ts';
import { DESKTOP, hasChromium, lookAtScreen, openForm, PHONE, watchForErrors } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  newestResponse,
  owner,
  screenshotAt,
  server,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';
import { ownerContext } from './support/owner.ts';

setUpCustomerJourneys();

/** Every answer given by the keyboard: Tab into each group, arrows to choose, Space to tick. */
async function answerByKeyboard(page: Page, guests: string) {
  await page.getByLabel(/^Guests/).fill(guests);
  // The rating's group is one tab stop: Tab from the box lands on its first star, arrows move the choice.
  await page.getByLabel(/^Guests/).focus();
  await page.keyboard.press('Tab');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('value'))).toBe('1');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  expect(await page.getByRole('radio', { name: '4 of 5' }).isChecked()).toBe(true);
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowLeft');
  expect(await page.getByRole('radio', { name: '10', exact: true }).isChecked()).toBe(true);
  await page.getByRole('checkbox', { name: /house rules/ }).focus();
  await page.keyboard.press('Space');
  await page.getByLabel('Arrival time').fill('14:30');
  // Prefilled from the link: the customer sees it and keeps it.
  expect(await page.getByLabel('Your website').inputValue()).toBe('https://example.org/me');
  // The grid: one tab stop a row, arrows to choose within it.
  await page.getByRole('radiogroup', { name: 'Room' }).getByRole('radio').first().focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  expect(await chosenIn(page, 'Room')).toBe('Good');
  expect(await chosenIn(page, 'Breakfast')).toBe('Fair');
}

/** The column checked in a grid's row. */
const chosenIn = (page: Page, row: string) =>
  page.getByRole('radiogroup', { name: row }).locator('input:checked').getAttribute('value');

/** The link as a campaign would send it: a hidden field, a tracker's parameter, and the website prefilled. */
const trackedLink = (form: Form) => {
  const website = form.moreField.find((f) => f.name === 'Your website')?._id ?? '';
  return `${customerLink(form)}?ref=crm-42&utm_source=mail&q_${website}=${encodeURIComponent('https://example.org/me')}`;
};

async function expectStored(form: Form, guests: string) {
  const stored = await newestResponse(form);
  expect(stored.answers.map((a) => [a.name, a.value])).toEqual([
    ['Guests', guests],
    ['Your stay', '4'],
    ['How likely are you to recommend us?', '10'],
    ['Terms', 'yes'],
    ['Arrival time', '14:30'],
    ['Your website', 'https://example.org/me'],
    ['Rate our service', { Room: 'Good', Breakfast: 'Fair' }],
  ]);
  expect(stored.hidden).toEqual({ ref: 'crm-42' });
}

describe.skipIf(!hasChromium)('a customer answers the kinds beyond the first five', () => {
  let form: Form;

  it('without JavaScript: the page the server draws, sent back at the number, then stored', async () => {
    form = await formWith('Your stay with us', MORE_KIND_QUESTIONS);
    form = await call<Form>(`/api/updateFormEntry/${form._id}`, {
      method: 'PUT',
      body: { hiddenFields: ['ref'] },
      token: owner.token,
    });
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(trackedLink(form));
    await page.getByRole('heading', { name: 'Before you answer' }).waitFor();
    await answerByKeyboard(page, '40');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Enter 12 or less').first().waitFor();
    expect(await page.getByRole('radio', { name: '4 of 5' }).isChecked()).toBe(true);
    expect(await chosenIn(page, 'Breakfast')).toBe('Fair');
    await page.getByLabel(/^Guests/).fill('3');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await context.close();
    await expectStored(form, '3');
  });

  it('with JavaScript: the same answers after the take-over, each screen checked with axe', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await openForm(page, trackedLink(form));
    await screenshotAt(page, 'more-kinds-form', [PHONE.width, DESKTOP.width]);
    await answerByKeyboard(page, '2,0');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
    await expectStored(form, '2');
  });

  it('shows the owner the NPS, the stars and the numbers in Results', async () => {
    const results = await call<FormResults>(`/api/formResults/${form._id}`, { token: owner.token });
    expect(results.responses).toBe(2);
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await ownerContext(browser, owner, viewport);
      const page = await context.newPage();
      await page.goto(`${server.url}/formResults?fid=${form._id}`);
      await page.getByText('NPS +100').waitFor();
      await page.getByText('Median').first().waitFor();
      // The grid, row by row: both responses chose Good for the room.
      await page.getByRole('heading', { name: /Breakfast/ }).waitFor();
      await lookAtScreen(page, viewport, 'more-kinds-results');
      // One response in full: each kind's answer as text, and the hidden field under "From the link".
      const newest = await newestResponse(form);
      await page.goto(`${server.url}/submitedForm/${newest._id}`);
      await page.getByRole('heading', { name: 'From the link' }).waitFor();
      await page.getByText('crm-42').waitFor();
      // The rating as the customer saw it: four of five stars.
      await page.getByText('4 of 5', { exact: true }).waitFor();
      await lookAtScreen(page, viewport, 'more-kinds-response');
      await context.close();
    }
  });

  it('recalls the first page’s answer in the second page’s question, with scripts off and on', async () => {
    let paged = await formWith('Two pages', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 1, name: 'Your email', type: 'email', required: true },
    ]);
    const [name, email] = paged.items;
    const recalling = { ...email, name: `Thanks, {{answer:${name?._id}|friend}}! Your email?` };
    paged = await call<Form>(`/api/v1/form/${paged._id}/items`, {
      method: 'PUT',
      token: owner.token,
      body: {
        items: [name, { kind: 'page', _id: 'p2', title: 'Contact' }, recalling],
        version: paged.version,
      },
    });
    for (const javaScriptEnabled of [false, true]) {
      const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled });
      const page = await context.newPage();
      if (javaScriptEnabled) await openForm(page, customerLink(paged));
      else await page.goto(customerLink(paged));
      await page.getByLabel(/^Your name/).fill('<b>Meera</b>');
      await page.getByRole('button', { name: 'Next' }).click();
      // As text: the customer's own answer never becomes markup.
      await page.getByLabel('Thanks, <b>Meera</b>! Your email?').waitFor();
      // axe runs as a script: the page without one is checked in the journeys of the page without JavaScript.
      if (javaScriptEnabled) await lookAtScreen(page, PHONE, 'recall');
      await context.close();
    }
  });
});
