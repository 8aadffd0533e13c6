// A file question that takes several files (issue 39): the customer picks two at once on a phone, with scripts off
// (the page the server draws, one multipart post) and on (the React slot uploading each and listing them), is told
// when they pick more than it takes, and the owner reads every file in the response. axe on each screen with scripts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { PDF, PNG } from '../src/server/testing/test-files.ts';
import { DESKTOP, hasChromium, lookAtScreen, openForm, PHONE, watchForErrors } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  newestResponse,
  owner,
  server,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';
import { ownerContext } from './support/owner.ts';

setUpCustomerJourneys();

let dir: string;
const path = (name: string) => join(dir, name);

describe.skipIf(!hasChromium)('a customer gives a question several files', () => {
  let form: Form;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'easyform-many-'));
    for (const name of ['kitchen.png', 'hall.png', 'garden.png']) await writeFile(path(name), PNG);
    await writeFile(path('quote.pdf'), PDF);
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('without JavaScript: picks two at once, is told when three are too many, and both are stored', async () => {
    form = await formWith('Repair request', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 5, name: 'Photos of the damage', required: true },
    ]);
    const photos = form.fileField[0]?._id ?? '';
    form = await call<Form>(`/api/updateFile/${form._id}/${photos}`, {
      method: 'PUT',
      token: owner.token,
      body: { name: 'Photos of the damage', fileRules: { maxFiles: 2 } },
    });
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(customerLink(form));
    await page.getByLabel(/^Your name/).fill('Asha');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Up to 2 files: JPEG, PNG or PDF').waitFor();
    const picker = page.getByLabel(/^Photos of the damage/);
    expect(await picker.getAttribute('multiple')).not.toBeNull();
    await picker.setInputFiles([path('kitchen.png'), path('hall.png'), path('garden.png')]);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Choose at most 2 files').first().waitFor();
    await page.getByLabel(/^Photos of the damage/).setInputFiles([path('kitchen.png'), path('quote.pdf')]);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await context.close();
    const stored = await newestResponse(form);
    expect(stored.answers[1]?.files?.map((f) => f.originalName)).toEqual(['kitchen.png', 'quote.pdf']);
  });

  it('with JavaScript: each file uploads as picked, is listed with its preview, and the slot fills up', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await openForm(page, customerLink(form));
    await page.getByLabel(/^Your name/).fill('Ravi');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.waitForURL('**/fileUpload');
    const picker = page.getByLabel(/^Photos of the damage/);
    // Three picked where two fit: the first two are added, and the slot says what became of the third.
    await picker.setInputFiles([path('kitchen.png'), path('hall.png'), path('garden.png')]);
    await page.getByRole('img', { name: 'Preview of hall.png' }).waitFor();
    await page.getByText('1 of those chosen was not added').waitFor();
    expect(await page.getByRole('img', { name: 'Preview of kitchen.png' }).count()).toBe(1);
    // Full: no picker until one goes.
    expect(await page.locator('input[type=file]').count()).toBe(0);
    await lookAtScreen(page, PHONE, 'fill-many-files');
    await page.getByRole('button', { name: 'Remove hall.png' }).click();
    await page.getByText('1 of 2 added').waitFor();
    await page.getByLabel(/^Photos of the damage/).setInputFiles(path('quote.pdf'));
    await page.getByRole('button', { name: 'Remove quote.pdf' }).waitFor();
    await page.setViewportSize(DESKTOP);
    await lookAtScreen(page, DESKTOP, 'fill-many-files');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
    const stored = await newestResponse(form);
    expect(stored.answers[1]?.files?.map((f) => f.originalName)).toEqual(['kitchen.png', 'quote.pdf']);
    expect(stored.answers[1]?.file?.originalName).toBe('kitchen.png');
  });

  it('shows the owner every file of the answer, each with its download link', async () => {
    const newest = await newestResponse(form);
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await ownerContext(browser, owner, viewport);
      const page = await context.newPage();
      await page.goto(`${server.url}/submitedForm/${newest._id}`);
      await page.getByRole('list', { name: 'Photos of the damage: 2 files' }).waitFor();
      await page.getByRole('img', { name: 'Photos of the damage: kitchen.png' }).waitFor();
      await page.getByRole('link', { name: 'Download quote.pdf' }).waitFor();
      await lookAtScreen(page, viewport, 'response-many-files');
      await context.close();
    }
  });
});
