// A customer fills in and submits a form on a phone: with files, and with the keyboard alone.
// (customer-opens-form.test.ts has the page before the script and its takeover.)
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { PDF, PNG } from '../src/server/testing/test-files.ts';
import {
  DESKTOP,
  hasChromium,
  newPage,
  openForm,
  PHONE,
  recordConsole,
  lookAtScreen,
  waitForOrExplain,
  watchForErrors,
} from './support/browser.ts';
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

let files: string;

/** The travel template (text, email, tel, date, a dropdown, an ID file) plus radio, checkboxes and a PDF slot. */
async function createTravelForm(token: string): Promise<Form> {
  const form = await call<Form>('/api/v1/length', { body: { template: 'travel' }, token });
  await call(`/api/text/${form._id}`, {
    token,
    body: {
      id: 3,
      name: 'Cabin class',
      required: true,
      options: [{ value: 'Economy' }, { value: 'Business' }],
    },
  });
  await call(`/api/text/${form._id}`, {
    token,
    body: { id: 4, name: 'Extras', options: [{ value: 'Window seat' }, { value: 'Vegetarian meal' }] },
  });
  await call(`/api/text/${form._id}`, { token, body: { id: 1, name: 'Notes', type: 'textarea' } });
  return call<Form>(`/api/text/${form._id}`, { token, body: { id: 5, name: 'Booking confirmation (PDF)' } });
}

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('a customer fills in a form on a phone', () => {
  setUpCustomerJourneys();
  beforeAll(async () => {
    files = await mkdtemp(join(tmpdir(), 'easyform-uploads-'));
  });
  afterAll(async () => {
    if (files) await rm(files, { recursive: true, force: true });
  });

  it('answers, reloads, uploads an image and a PDF, submits once and sees the success screen', async () => {
    const form = await createTravelForm(owner.token);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);

    await openForm(page, customerLink(form));
    await page.waitForURL('**/preview');
    await page.getByRole('heading', { name: 'Travel Booking Form', level: 1 }).waitFor();
    expect(
      await page.evaluate(() => [localStorage.getItem('fid'), localStorage.getItem('formOwnerId')]),
    ).toEqual([form._id, owner.id]);
    expect(await page.evaluate(() => localStorage.getItem('id'))).toBeNull();

    await page.getByLabel('Full name').fill('Ravi Kumar');
    await page.getByLabel('Email').fill('ravi@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    // The check may wait for the validation code on its first use (docs/decisions/012): wait for its message.
    await page.getByText('This question is required').first().waitFor();
    const phone = page.getByLabel('Phone');
    expect(await phone.getAttribute('aria-invalid')).toBe('true');
    expect(await phone.evaluate((el) => el === document.activeElement)).toBe(true);
    const describedBy = (await phone.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('required');
    await screenshotAt(page, 'fill-preview-errors', [390]);

    await phone.fill('+91 98765 43210');
    await page.getByLabel('Destination').fill('Kochi');
    await page.getByLabel('Travel date').fill('2027-01-15');
    await page.getByLabel('Travellers').selectOption('2');

    // A reload half-way keeps what was typed.
    await page.reload();
    await page.getByRole('heading', { name: 'Travel Booking Form', level: 1 }).waitFor();
    expect(await page.getByLabel('Full name').inputValue()).toBe('Ravi Kumar');
    expect(await page.getByLabel('Travel date').inputValue()).toBe('2027-01-15');
    expect(await page.getByLabel('Travellers').inputValue()).toBe('2');

    await page.getByRole('radiogroup', { name: 'Cabin class' }).getByLabel('Business').check();
    await page.getByRole('group', { name: 'Extras' }).getByLabel('Window seat').check();
    await page.getByLabel('Notes').fill('Travelling with a small dog.');
    await screenshotAt(page, 'fill-preview', [390, 360, 1280]);
    await page.getByRole('button', { name: 'Next' }).click();

    await page.waitForURL('**/fileUpload');
    // The new step takes the focus at its heading, not the page's body.
    await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
    const png = join(files, 'passport.png');
    const pdf = join(files, 'booking.pdf');
    const text = join(files, 'notes.txt');
    await writeFile(pdf, PDF);
    await writeFile(text, 'not a picture');

    await page.getByText('JPEG, PNG or PDF').first().waitFor();
    await screenshotAt(page, 'fill-file-upload-empty', [390]);
    const idSlot = page.getByLabel('ID document (passport or national ID)');
    await idSlot.setInputFiles(text);
    await page.getByText('Choose a JPEG, PNG or PDF file').waitFor();
    // A slow connection, so the progress bar is there to see; trailing bytes after IEND keep it a valid PNG.
    await writeFile(png, Buffer.concat([PNG, Buffer.alloc(60_000)]));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: 1_000_000,
      uploadThroughput: 30_000,
    });
    await idSlot.setInputFiles(png);
    const progress = page.getByRole('progressbar', { name: /Uploading passport\.png/ });
    await progress.waitFor();
    await page.waitForFunction(() => Number(document.querySelector('progress')?.value) > 0);
    await screenshotAt(page, 'fill-file-uploading', [390]);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await page.getByRole('img', { name: 'Preview of passport.png' }).waitFor();
    // A screen reader hears that the upload finished, not only a preview appearing.
    await page
      .getByRole('status')
      .filter({ hasText: 'passport.png uploaded' })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Booking confirmation (PDF)').setInputFiles(pdf);
    await page.getByText('booking.pdf', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Remove booking.pdf' }).click();
    await page.getByLabel('Booking confirmation (PDF)').setInputFiles(pdf);
    await page.getByRole('button', { name: 'Remove booking.pdf' }).waitFor();
    await screenshotAt(page, 'fill-file-upload', [390, 360]);

    // Back keeps the answers, and the files survive the round trip.
    await page.getByRole('link', { name: 'Back' }).click();
    await page.waitForURL('**/preview');
    expect(await page.getByLabel('Destination').inputValue()).toBe('Kochi');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('img', { name: 'Preview of passport.png' }).waitFor();

    // An upload that is gone by the time of Submit (here removed behind the page's back): the server's 400 names
    // the question, and the message shows at that slot.
    const deleteId = await page.evaluate(
      (id) =>
        JSON.parse(localStorage.getItem('userSubmissionData') ?? '{}').files?.[id]?.[0]?.deleteId as string,
      form.fileField[1]?._id ?? '',
    );
    await call(`/api/profile/${deleteId}`, { method: 'DELETE' });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('This file was not uploaded for this form; upload it again').waitFor();
    await page.getByRole('button', { name: 'Remove booking.pdf' }).click();
    await page.getByLabel('Booking confirmation (PDF)').setInputFiles(pdf);
    await page.getByRole('button', { name: 'Remove booking.pdf' }).waitFor();

    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await page.getByText('Your response to Travel Booking Form was sent').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('userFormId'))).toBeTruthy();
    expect(await page.evaluate(() => localStorage.getItem('userSubmissionData'))).toBeNull();
    await screenshotAt(page, 'fill-success', [390, 360]);

    const summary = await call<{ _id: string; count: number }[]>('/api/formSummary', { token: owner.token });
    expect(summary.find((s) => s._id === form._id)?.count).toBe(1);

    await page.getByRole('button', { name: 'Submit another response' }).click();
    await page.waitForURL('**/preview');
    expect(await page.getByLabel('Full name').inputValue()).toBe('');
    expect(errors).toEqual([]);
    await page.close();

    // The owner reads it: Received shows 1 response, /formList lists it, the response shows every answer and the
    // image 300 px wide, the PDF drawn in the page by the bundled pdf.js.
    for (const viewport of [DESKTOP, PHONE]) {
      const context = await ownerContext(browser, owner, viewport);
      const ownerPage = await context.newPage();
      const ownerErrors = watchForErrors(ownerPage);
      const ownerLog = recordConsole(ownerPage);
      const look = (name: string) => lookAtScreen(ownerPage, viewport, name);
      await ownerPage.goto(`${server.url}/dashboard?tab=received`);
      const row = ownerPage.locator('tbody tr', { hasText: 'Travel Booking Form' });
      await row.getByText('1 response').waitFor();
      await look('received');
      await row.getByRole('link', { name: 'Travel Booking Form', exact: true }).click();
      await ownerPage.getByRole('heading', { name: 'Travel Booking Form' }).waitFor();
      await ownerPage.getByText('1 response, newest first').waitFor();
      await look('form-list');
      await ownerPage.getByRole('link', { name: /Ravi Kumar/ }).click();
      await ownerPage.getByText('Kochi').waitFor();
      await ownerPage.getByText('Travelling with a small dog.').waitFor();
      const image = ownerPage.getByRole('img', { name: /ID document/ });
      await image.waitFor();
      // The element appears before its bytes arrive: wait for it to load (or fail to), then check it decoded.
      const loaded = await image.evaluate((img: HTMLImageElement) =>
        img.complete
          ? img.naturalWidth > 0
          : new Promise<boolean>((resolve) => {
              img.addEventListener('load', () => resolve(img.naturalWidth > 0));
              img.addEventListener('error', () => resolve(false));
            }),
      );
      expect(loaded).toBe(true);
      expect(Math.round((await image.boundingBox())?.width ?? 0)).toBe(300);
      // The viewer is busy until pdf.js has drawn the page; then the canvas holds the PDF's green square.
      await waitForOrExplain(
        ownerPage,
        ownerPage.locator('.pdf-viewer:not([aria-busy])').getByRole('img', { name: 'booking.pdf, page 1' }),
        ownerLog,
      );
      const drawn = await ownerPage.locator('.pdf-viewer canvas').evaluate((canvas: HTMLCanvasElement) => {
        const [red, green, blue] = canvas
          .getContext('2d')
          ?.getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data ?? [0, 0, 0];
        return { width: canvas.getBoundingClientRect().width, red, green, blue };
      });
      expect(drawn.green).toBeGreaterThan(100);
      expect(drawn.red).toBeLessThan(50);
      expect(drawn.blue).toBeLessThan(120);
      // As wide as the answer allows, up to 640 px: 640 px on a desktop, the whole answer's width on a phone.
      const room = await ownerPage
        .locator('.answer-file')
        .last()
        .evaluate((el) => el.clientWidth);
      expect(Math.round(drawn.width)).toBe(Math.min(640, room));
      await look('submission');
      expect(ownerErrors).toEqual([]);
      await context.close();
    }
  });

  it('can be filled in and submitted with the keyboard alone, with focus always visible', async () => {
    const form = await formWith('Workshop sign-up', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 2, name: 'Session', options: [{ value: 'Morning' }, { value: 'Evening' }], required: true },
      { id: 3, name: 'Level', options: [{ value: 'Beginner' }, { value: 'Advanced' }], required: true },
      { id: 4, name: 'Bring', options: [{ value: 'Laptop' }, { value: 'Notebook' }] },
    ]);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    await openForm(page, customerLink(form));
    await page.getByLabel('Your name').waitFor();
    /**
     * Tabs to the next control and answers what it is, and whether focus shows: the outline or shadow of the control
     * (or of the option drawn around a radio or checkbox) must differ from how it looks without focus.
     */
    const tab = async () => {
      await page.keyboard.press('Tab');
      return page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const option = el.closest('label, .fill-option');
        const look = () =>
          [el, option]
            .filter((node): node is Element => node !== null)
            .map((node) => {
              const style = getComputedStyle(node);
              return `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor} ${style.boxShadow} ${style.borderColor}`;
            })
            .join(' | ');
        const focused = look();
        el.blur();
        const blurred = look();
        el.focus();
        const label = el.getAttribute('aria-label') ?? (el as HTMLInputElement).labels?.[0]?.innerText ?? '';
        return {
          tag: el.tagName,
          type: el.getAttribute('type'),
          text: (label || el.innerText).trim(),
          shown: focused !== blurred,
        };
      });
    };

    const name = await tab();
    expect(name).toMatchObject({ tag: 'INPUT', shown: true });
    expect(name.text).toMatch(/^Your name/);
    await page.keyboard.type('Meera Iyer');
    const session = await tab();
    expect(session).toMatchObject({ tag: 'SELECT', shown: true });
    await page.keyboard.press('ArrowDown');
    const level = await tab();
    expect(level).toMatchObject({ tag: 'INPUT', type: 'radio', shown: true });
    await page.keyboard.press('Space');
    const bring = await tab();
    expect(bring).toMatchObject({ tag: 'INPUT', type: 'checkbox', shown: true });
    await page.keyboard.press('Space');
    let control = await tab();
    for (let i = 0; i < 3 && control.tag !== 'BUTTON'; i++) control = await tab();
    expect(control).toMatchObject({ tag: 'BUTTON', text: 'Submit', shown: true });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();

    const stored = await newestResponse(form);
    expect(stored.textObject).toEqual({ 'Your name': 'Meera Iyer' });
    expect(stored.selectedValues).toEqual({ Session: 'Morning' });
    expect(stored.selectedRadio).toEqual({ Level: 'Beginner' });
    expect(stored.selectedCheckboxes).toEqual([{ name: 'Bring', values: ['Laptop'] }]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
