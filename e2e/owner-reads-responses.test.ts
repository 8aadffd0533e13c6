// An owner reads what customers sent (customer-fill.test.ts has the customers' side): a response whose PDF is
// damaged, many responses paged on a phone, searched and deleted, and a form's Results.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { apiCall, type CallInit } from './support/api.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  lookAtScreen,
  PHONE,
  recordConsole,
  screenshot,
  screenshotBoth,
  waitForOrExplain,
  watchForErrors,
} from './support/browser.ts';
import { createOwner, ownerContext, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let owner: TestOwner;

const call = <T>(path: string, init: CallInit = {}) => apiCall<T>(server, path, init);

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('an owner reads the responses customers sent', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await createOwner(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a damaged PDF as a message beside its download link, not as a broken page', async () => {
    const form = await call<Form>(
      `/api/text/${(await call<Form>('/api/v1/length', { body: { formTitle: 'Claims' }, token: owner.token }))._id}`,
      {
        token: owner.token,
        body: { id: 5, name: 'Receipt' },
      },
    );
    // Starts like a PDF, so the upload's content check accepts it, but pdf.js cannot read it.
    const upload = new FormData();
    upload.append('file', new Blob(['%PDF-1.4\nthis is not really a PDF\n']), 'damaged.pdf');
    const uploaded = (await (
      await fetch(`${server.url}/api/profile?formId=${form._id}`, { method: 'POST', body: upload })
    ).json()) as { _id: string; file: string; name: string };
    const { _id } = await call<{ _id: string }>(`/api/forms/${owner.id}`, {
      body: {
        formStructureId: form._id,
        formTitle: form.formTitle,
        fileObject: {
          [form.fileField[0]?._id ?? '']: {
            deleteId: uploaded._id,
            value: uploaded.file,
            originalName: uploaded.name,
            name: 'Receipt',
          },
        },
      },
    });
    const context = await ownerContext(browser, owner, PHONE);
    const page = await context.newPage();
    const log = recordConsole(page);
    await page.goto(`${server.url}/submitedForm/${_id}`);
    await waitForOrExplain(page, page.getByRole('alert').getByText('This PDF could not be shown here'), log);
    await page.getByRole('link', { name: 'Download damaged.pdf' }).waitFor();
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('alert').getByText('This PDF could not be shown here').waitFor();
    await screenshot(page, 'submission-damaged-pdf');
    await context.close();
  });

  it('pages an owner through many responses on a phone, newest first', async () => {
    const form = await call<Form>(
      `/api/text/${(await call<Form>('/api/v1/length', { body: { formTitle: 'Guest list' }, token: owner.token }))._id}`,
      { token: owner.token, body: { id: 1, name: 'Guest', required: true } },
    );
    const guest = form.textField[0]?._id ?? '';
    // One more than a page (25): sent one after another, so each has its own time.
    for (let n = 1; n <= 26; n++) {
      await call(`/api/forms/${owner.id}`, {
        body: { formStructureId: form._id, formTitle: form.formTitle, textObject: { [guest]: `Guest ${n}` } },
      });
    }
    const context = await ownerContext(browser, owner, PHONE);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    const rows = page.locator('tbody tr');
    await rows.first().getByRole('link', { name: 'Guest 26' }).waitFor();
    expect(await rows.count()).toBe(25);
    // The Time column gives way on a phone; the time shows under the date instead.
    expect(await page.getByRole('columnheader', { name: 'Time' }).isVisible()).toBe(false);
    expect(await rows.first().locator('.only-on-phone').innerText()).toMatch(/\d{1,2}:\d{2}:\d{2}/);
    await screenshot(page, 'form-list-paged');
    const pager = page.getByRole('navigation', { name: 'Pages of responses' });
    expect(await pager.getByRole('button', { name: 'Newest' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Older →' }).click();
    await rows.first().getByRole('link', { name: 'Guest 1', exact: true }).waitFor();
    expect(await rows.count()).toBe(1);
    expect(await pager.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Newest' }).click();
    await rows.first().getByRole('link', { name: 'Guest 26' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches responses, deletes a selected one and another from its page, and sees the count drop', async () => {
    const form = await call<Form>(
      `/api/text/${(await call<Form>('/api/v1/length', { body: { formTitle: 'Workshop sign-ups' }, token: owner.token }))._id}`,
      { token: owner.token, body: { id: 1, name: 'Guest', required: true } },
    );
    const guest = form.textField[0]?._id ?? '';
    for (const name of ['Asha Rao', 'Ravi Kumar', 'Asha Menon', 'Meera Iyer']) {
      await call(`/api/forms/${owner.id}`, {
        body: { formStructureId: form._id, formTitle: form.formTitle, textObject: { [guest]: name } },
      });
    }
    const context = await ownerContext(browser, owner, DESKTOP);
    const page = await context.newPage();
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    await page.getByText('4 responses, newest first').waitFor();
    const rows = page.locator('tbody tr');

    // Search: the filter goes into the URL and the count says how many match.
    await page.getByLabel('Search answers').fill('asha');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('2 responses match, newest first').waitFor();
    expect(page.url()).toContain('q=asha');
    expect(await rows.count()).toBe(2);
    await screenshotBoth(page, 'form-list-filtered');
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.setViewportSize(DESKTOP);

    // Delete one selected response, after confirming.
    await page.getByRole('checkbox', { name: /^Select Asha Menon/ }).check();
    await page.getByText('1 selected').waitFor();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete 1 response?' });
    await dialog.waitFor();
    await screenshot(page, 'form-list-confirm-delete');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('1 response match, newest first').waitFor();
    await page.getByText('Deleted 1 response.').waitFor();
    expect(await rows.count()).toBe(1);

    // A search that matches nothing says so.
    await page.getByLabel('Search answers').fill('nobody');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('No responses match this search and dates.').waitFor();
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByText('3 responses, newest first').waitFor();

    // Delete one from its own page: back on the list, one fewer.
    await page.getByRole('link', { name: 'Ravi Kumar' }).click();
    await page.getByRole('button', { name: 'Delete response' }).click();
    await page
      .getByRole('dialog', { name: 'Delete this response?' })
      .getByRole('button', { name: 'Delete response' })
      .click();
    await page.getByText('2 responses, newest first').waitFor();
    expect(page.url()).toContain(`/formList?fid=${form._id}`);
    await screenshotBoth(page, 'form-list-after-delete');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the owner a form's Results: views, bars and day columns with their tables, latest answers", async () => {
    const token = owner.token;
    let form = await call<Form>('/api/v1/length', { body: { formTitle: 'Team offsite' }, token });
    for (const body of [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 3, name: 'Which city?', options: [{ value: 'Goa' }, { value: 'Munnar' }, { value: 'Hampi' }] },
      {
        id: 4,
        name: 'Activities',
        options: [{ value: 'Trekking' }, { value: 'Kayaking' }, { value: 'Cooking class' }],
      },
      { id: 2, name: 'Room', options: [{ value: 'Shared' }, { value: 'Single' }] },
      { id: 1, name: 'Anything else?', type: 'textarea' },
      { id: 5, name: 'ID proof' },
    ]) {
      form = await call<Form>(`/api/text/${form._id}`, { token, body });
    }
    const [name, note] = form.textField.map((f) => f._id);
    const [city] = form.radioField.map((f) => f._id);
    const [activities] = form.checkField.map((f) => f._id);
    const [room] = form.selectField.map((f) => f._id);
    // Eight opens of the public link (each one a view), then six responses.
    for (let i = 0; i < 8; i++) {
      expect((await fetch(`${server.url}/customer/${form._id}/${owner.id}`)).status).toBe(200);
    }
    const answers = [
      ['Meera', 'Goa', ['Trekking', 'Kayaking'], 'Shared', 'Vegetarian food, please.'],
      ['Arjun', 'Goa', ['Kayaking'], 'Single', ''],
      ['Fatima', 'Munnar', ['Trekking', 'Cooking class'], 'Shared', 'Arriving a day late.'],
      ['Kiran', 'Goa', [], 'Shared', ''],
      ['Divya', 'Hampi', ['Trekking'], '', 'Can we bring a partner?'],
      ['Sanjay', 'Munnar', ['Trekking', 'Kayaking', 'Cooking class'], 'Single', ''],
    ] as const;
    for (const [who, where, what, kind, extra] of answers) {
      await call(`/api/forms/${owner.id}`, {
        body: {
          formStructureId: form._id,
          textObject: { [name ?? '']: who, ...(extra ? { [note ?? '']: extra } : {}) },
          selectedRadio: { [city ?? '']: where },
          selectedCheckboxes: what.length > 0 ? [{ name: activities, values: what }] : [],
          selectedValues: kind ? { [room ?? '']: kind } : {},
        },
      });
    }

    for (const viewport of [DESKTOP, PHONE]) {
      const context = await ownerContext(browser, owner, viewport);
      const page = await context.newPage();
      const errors = watchForErrors(page);
      // Reached from the responses list (and, on a desktop, from the editor's top bar too).
      await page.goto(`${server.url}/formList?fid=${form._id}`);
      await page.getByRole('link', { name: 'Results' }).click();
      await page.getByRole('heading', { level: 2, name: 'Responses per day' }).waitFor();
      const summary = page.locator('.results-summary');
      expect(await summary.innerText()).toMatch(/Responses\s+6\s+Views\s+8\s+Completion rate\s+75%/);
      const cities = page.getByRole('table', { name: 'Which city?: responses per option' });
      expect(await cities.getByRole('row').allInnerTexts()).toEqual([
        'Option\tResponses\tShare of answers',
        'Goa\t3\t50%',
        'Munnar\t2\t33.3%',
        'Hampi\t1\t16.7%',
      ]);
      const days = page.getByRole('table', { name: 'Responses and views per day, last 30 days' });
      expect(await days.getByRole('row').count()).toBe(31);
      expect(await days.getByRole('row').last().innerText()).toMatch(/\t6\t8$/);
      await page.getByText('0 of 6 responses with a file').waitFor();
      await lookAtScreen(page, viewport, 'results');
      // Each latest answer opens its response.
      await page.getByRole('link', { name: 'Arriving a day late.' }).click();
      await page.getByText('Fatima').first().waitFor();
      if (viewport === DESKTOP) {
        await page.goto(`${server.url}/makeForms?fid=${form._id}`);
        await page.getByRole('link', { name: 'Results' }).click();
        await page.getByRole('heading', { level: 1, name: 'Team offsite' }).waitFor();
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('keeps a long unbroken title and name inside the owner lists, dates and actions in sight', async () => {
    const title =
      'Averyveryverylongunbrokenformtitlewithoutanyspacesatallthatkeepsgoingandgoingforeverandever';
    const form = await call<Form>(
      `/api/text/${(await call<Form>('/api/v1/length', { body: { formTitle: title }, token: owner.token }))._id}`,
      { token: owner.token, body: { id: 1, name: 'Name', required: true } },
    );
    const name = form.textField[0]?._id ?? '';
    await call(`/api/forms/${owner.id}`, {
      body: {
        formStructureId: form._id,
        formTitle: form.formTitle,
        textObject: { [name]: 'Maximiliana.Konstantinopoulou.Wolfeschlegelsteinhausenbergerdorff' },
      },
    });
    /** The right edge of `selector` in the row of `text`, and whether its text sits on one line. */
    const cellOf = (page: Page, text: string, selector: string) =>
      page
        .getByRole('row')
        .filter({ hasText: text })
        .locator(selector)
        .first()
        .evaluate((el) => {
          const text = document.createRange();
          text.selectNodeContents(el);
          const lines = new Set([...text.getClientRects()].map((r) => Math.round(r.top)));
          return { right: el.getBoundingClientRect().right, oneLine: lines.size === 1 };
        });
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await ownerContext(browser, owner, viewport);
      const page = await context.newPage();
      const errors = watchForErrors(page);
      await page.goto(`${server.url}/dashboard`);
      await page.getByRole('link', { name: title }).waitFor();
      // The Actions menu of that row is on screen, not pushed off by the title; the time is not broken.
      const summary = await cellOf(page, title, 'summary');
      expect(summary.right).toBeLessThanOrEqual(viewport.width);
      if (viewport === DESKTOP) expect((await cellOf(page, title, 'td:nth-child(3)')).oneLine).toBe(true);
      else await lookAtScreen(page, viewport, 'long-title-forms');
      await page.goto(`${server.url}/dashboard?tab=received`);
      await page.getByRole('link', { name: title, exact: true }).waitFor();
      const date = await cellOf(page, title, 'td:nth-child(2)');
      expect(date.right).toBeLessThanOrEqual(viewport.width);
      if (viewport === PHONE) await lookAtScreen(page, viewport, 'long-title-received');
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/formList?fid=${form._id}`);
      await page.getByRole('link', { name: /Maximiliana/ }).waitFor();
      const when = await cellOf(page, 'Maximiliana', 'td:nth-child(3)');
      expect(when.right).toBeLessThanOrEqual(viewport.width);
      if (viewport === DESKTOP)
        expect((await cellOf(page, 'Maximiliana', 'td:nth-child(4)')).oneLine).toBe(true);
      else await lookAtScreen(page, viewport, 'long-name-responses');
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
