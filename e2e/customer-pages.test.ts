// A customer fills a branching form with scripts on, one page at a time on a phone: both branches, the page's Back
// and Next and the browser's Back, a file answered on the page that asks it, and each response stored once with the
// pages it went through, one of them sent from the device's queue after an offline reload
// (docs/decisions/042-pages-and-conditions.md).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import type { FormItem } from '../src/common/logic/items.ts';
import { BOOKING_ITEMS } from '../src/server/testing/booking-items.ts';
import { PNG } from '../src/server/testing/test-files.ts';
import {
  hasChromium,
  newPage,
  openForm,
  PHONE,
  unexpectedOffline,
  watchForErrors,
} from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  newestResponse,
  owner,
  responseIds,
  screenshotAt,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

/**
 * The branching tests' booking form (a room page only for those who need one; a diet question on the last page only
 * for those who gave their nights) with a photo ID on the room page.
 */
const ITEMS: FormItem[] = [
  ...BOOKING_ITEMS.slice(0, 4),
  { kind: 'file', _id: 'photo', name: 'Photo ID', type: 'file', required: false },
  ...BOOKING_ITEMS.slice(4),
];

async function branchingForm(): Promise<Form> {
  const blank = await formWith('Retreat weekend', []);
  return call<Form>(`/api/v1/form/${blank._id}/items`, {
    method: 'PUT',
    token: owner.token,
    body: { items: ITEMS, version: blank.version },
  });
}

/** The page the customer is on: its address's page, its count and the heading that has the focus. */
async function onPage(page: Page, id: string | null, count: string, title?: string) {
  await page.waitForURL((url) => url.pathname === '/preview' && url.searchParams.get('page') === id);
  await page.getByText(count, { exact: true }).waitFor();
  if (title === undefined) return;
  const heading = page.getByRole('heading', { level: 2, name: title });
  await heading.waitFor();
  await page.waitForFunction((name) => document.activeElement?.textContent === name, title);
}

let files = '';
afterAll(async () => {
  if (files) await rm(files, { recursive: true, force: true });
});

describe.skipIf(!hasChromium)('a customer fills a branching form a page at a time', () => {
  setUpCustomerJourneys();

  it('goes through the room page on one branch and past it on the other, each response stored once with its path', async () => {
    const form = await branchingForm();
    const [room, end] = [pageId(form, 'room'), pageId(form, 'end')];
    files = await mkdtemp(join(tmpdir(), 'easyform-pages-'));
    const png = join(files, 'id-card.png');
    await writeFile(png, PNG);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);

    await openForm(page, customerLink(form));
    await onPage(page, null, 'Page 1 of 2');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('2 answers need your attention.').waitFor();
    await page.getByLabel('Your name').fill('Asha Rao');
    await page.getByRole('radiogroup', { name: 'Do you need a room?' }).getByLabel('No').check();
    await screenshotAt(page, 'pages-first', [390]);
    await page.getByRole('button', { name: 'Next' }).click();
    await onPage(page, end, 'Page 2 of 2', 'Last words');
    expect(await page.getByLabel('How many nights?').count()).toBe(0);
    expect(await page.getByLabel('Any diet?').count()).toBe(0);

    // The browser's Back: the first page again, its answers kept; a room after all adds the room page.
    await page.goBack();
    await onPage(page, null, 'Page 1 of 2');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Asha Rao');
    await page.getByRole('radiogroup', { name: 'Do you need a room?' }).getByLabel('Yes').check();
    await page.getByText('Page 1 of 3', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await onPage(page, room, 'Page 2 of 3', 'Your room');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('This question is required').waitFor();
    await page.getByLabel('How many nights?').fill('2');
    await page.getByLabel('Photo ID').setInputFiles(png);
    await page.getByRole('img', { name: 'Preview of id-card.png' }).waitFor();
    await page.waitForFunction(() => [...document.images].every((image) => image.complete));
    await screenshotAt(page, 'pages-middle', [390, 1280]);
    await page.getByRole('button', { name: 'Next' }).click();
    await onPage(page, end, 'Page 3 of 3', 'Last words');
    await page.getByLabel('Any diet?').fill('Vegetarian');
    await screenshotAt(page, 'pages-last', [390]);

    // The page's Back keeps the room page's answers, the file among them.
    await page.getByRole('button', { name: 'Back' }).click();
    await onPage(page, room, 'Page 2 of 3', 'Your room');
    expect(await page.getByLabel('How many nights?').inputValue()).toBe('2');
    await page.getByRole('img', { name: 'Preview of id-card.png' }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await onPage(page, end, 'Page 3 of 3', 'Last words');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();

    const staying = await newestResponse(form);
    expect(staying.path).toEqual(['start', room, end]);
    expect(staying.answers.map((a) => a.name)).toEqual([
      'Your name',
      'Do you need a room?',
      'How many nights?',
      'Photo ID',
      'Any diet?',
    ]);

    // The other branch: no room, so the room page is never shown and nothing of it is sent. Page 1 online, then
    // the network goes: a reload on the last page opens it again, and the submit waits on the device until the
    // network is back.
    await page.getByRole('button', { name: 'Submit another response' }).click();
    await onPage(page, null, 'Page 1 of 2');
    await page.getByLabel('Your name').fill('Ravi Kumar');
    await page.getByRole('radiogroup', { name: 'Do you need a room?' }).getByLabel('No').check();
    await page.getByRole('button', { name: 'Next' }).click();
    await onPage(page, end, 'Page 2 of 2', 'Last words');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.context().setOffline(true);
    await page.reload();
    await onPage(page, end, 'Page 2 of 2');
    // The diet question is asked only of those who gave their nights.
    await page.getByText('Nothing more to ask: submit when you are ready.').waitFor();
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved on this device' }).waitFor();
    expect(await responseIds(form)).toHaveLength(1);
    await page.context().setOffline(false);
    // Usually at once; a first try that meets the network coming back waits out its deadline (offline.test.ts).
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor({ timeout: 45_000 });

    const passing = await newestResponse(form);
    expect(passing.path).toEqual(['start', end]);
    expect(passing.answers.map((a) => a.name)).toEqual(['Your name', 'Do you need a room?']);
    expect(await responseIds(form)).toHaveLength(2);
    expect(unexpectedOffline(errors)).toEqual([]);
    await page.close();
  });
});

/** The id the server gave the page break sent as `sent` (a new item gets a new id). */
function pageId(form: Form, sent: string): string {
  const title = ITEMS.find((i) => i._id === sent && i.kind === 'page');
  const found = form.items.find(
    (i) => i.kind === 'page' && title?.kind === 'page' && i.title === title.title,
  );
  return found?._id ?? '';
}
