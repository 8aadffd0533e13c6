// A customer whose browser runs no JavaScript fills in a form on a phone (issue 13 item 1, docs/decisions/024): the
// page the server draws, its multipart post, the page sent back with the answers kept, the thank-you.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import type { Submission } from '../src/common/submissions.ts';
import { PDF } from '../src/server/testing/test-files.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  PHONE,
  screenshot,
  takeCspViolations,
} from './support/browser.ts';
import { createOwner, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let owner: TestOwner;
let files: string;

async function call<T>(path: string, body?: object): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      authorization: `Bearer ${owner.token}`,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status >= 400)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** Text, email, a dropdown, radio buttons, checkboxes and a file: every kind a no-script page must post. */
async function createForm(): Promise<Form> {
  const form = await call<Form>('/api/v1/length', {
    formTitle: 'Volunteer sign-up',
    description: 'Join the beach clean-up on Saturday.',
  });
  let latest = form;
  for (const question of [
    { id: 1, name: 'Full name', type: 'text', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
    {
      id: 2,
      name: 'T-shirt size',
      options: [{ value: 'S' }, { value: 'M' }, { value: 'L' }],
      required: true,
    },
    { id: 3, name: 'Shift', options: [{ value: 'Morning' }, { value: 'Afternoon' }], required: true },
    { id: 4, name: 'I can bring', options: [{ value: 'Gloves' }, { value: 'Bags' }, { value: 'Snacks' }] },
    { id: 5, name: 'Signed waiver (PDF)', required: true },
  ]) {
    latest = await call<Form>(`/api/text/${form._id}`, question);
  }
  return latest;
}

/**
 * Screenshots the page at the phone and desktop widths, each checked with axe. axe runs as a script, which this
 * context refuses, so the page as the server drew it is shown at its own address in a context that runs scripts,
 * with the app's script left out: the same HTML and CSS, checked as is.
 */
async function lookAt(page: Page, name: string) {
  const html = (await page.content()).replace(/<script type="module"[^>]*>[^<]*<\/script>/g, '');
  const copy = await newPage(browser, PHONE);
  await copy.route(page.url(), (route) => route.fulfill({ body: html, contentType: 'text/html' }));
  await copy.goto(page.url());
  for (const viewport of [{ width: 360, height: PHONE.height }, PHONE, DESKTOP]) {
    await copy.setViewportSize(viewport);
    // Nothing may stick out sideways on the narrowest phone we support.
    expect(await copy.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    // At the end, so the sticky button bar is drawn where it rests rather than mid-page.
    await copy.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await screenshot(copy, name);
  }
  await copy.close();
}

/** A server of the describe's own (with `env`), a browser, an owner and a folder for files; all gone after it. */
function withServer(env?: Record<string, string>) {
  beforeAll(async () => {
    server = await startServer({ env });
    browser = await launchBrowser();
    owner = await createOwner(server);
    files = await mkdtemp(join(tmpdir(), 'easyform-nojs-'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (files) await rm(files, { recursive: true, force: true });
  });
}

describe.skipIf(!hasChromium)('a customer without JavaScript fills in a form on a phone', () => {
  withServer();

  it('is sent back with the answers kept, then submits with a file, and the owner sees one response', async () => {
    const form = await createForm();
    const waiver = join(files, 'waiver.pdf');
    await writeFile(waiver, PDF);
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();

    await page.goto(`${server.url}/customer/${form._id}/${owner.id}`);
    expect(page.url()).toContain(`/customer/${form._id}/`);
    await page.getByRole('heading', { name: 'Volunteer sign-up', level: 1 }).waitFor();
    await lookAt(page, 'nojs-form');

    // The same two steps as with the script: the answers and Next, then the file, Back and Submit.
    await page.getByText('Step 1 of 2 · Your answers').waitFor();
    expect(await page.getByLabel('Signed waiver (PDF)').count()).toBe(0);
    // Everything but the name: the server sends the page back with the message there and the rest kept.
    await page.getByLabel('Email').fill('meera@example.com');
    await page.getByLabel('T-shirt size').selectOption('M');
    await page.getByRole('radio', { name: 'Afternoon' }).check();
    await page.getByRole('checkbox', { name: 'Gloves' }).check();
    await page.getByRole('checkbox', { name: 'Snacks' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'One answer needs your attention' }).waitFor();
    const name = page.getByLabel('Full name');
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await name.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toContain('This question is required');
    expect(await page.getByLabel('Email').inputValue()).toBe('meera@example.com');
    expect(await page.getByLabel('T-shirt size').inputValue()).toBe('M');
    expect(await page.getByRole('radio', { name: 'Afternoon' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Gloves' }).isChecked()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'Bags' }).isChecked()).toBe(false);
    expect(await page.getByRole('checkbox', { name: 'Snacks' }).isChecked()).toBe(true);
    await page.getByRole('link', { name: 'Full name: This question is required' }).waitFor();
    await lookAt(page, 'nojs-form-errors');

    await name.fill('Meera Nair');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2 · Files').waitFor();
    await lookAt(page, 'nojs-files');
    // Back draws the answers again, and Next brings the customer back here.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByText('Step 1 of 2 · Your answers').waitFor();
    expect(await page.getByLabel('Full name').inputValue()).toBe('Meera Nair');
    expect(await page.getByRole('checkbox', { name: 'Snacks' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('Signed waiver (PDF)').setInputFiles(waiver);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await page.getByText('Your response to Volunteer sign-up was sent.').waitFor();
    await lookAt(page, 'nojs-thank-you');
    expect(takeCspViolations()).toEqual([]);
    await context.close();

    const list = await call<{ total: number; items: { _id: string }[] }>(`/api/formSubmissions/${form._id}`);
    expect(list.total).toBe(1);
    const one = await call<Submission>(`/api/forms/${list.items[0]?._id}`);
    expect(one.textObject).toEqual({ 'Full name': 'Meera Nair', Email: 'meera@example.com' });
    expect(one.selectedValues).toEqual({ 'T-shirt size': 'M' });
    expect(one.selectedRadio).toEqual({ Shift: 'Afternoon' });
    expect(one.selectedCheckboxes).toEqual([{ name: 'I can bring', values: ['Gloves', 'Snacks'] }]);
    const file = one.fileObject['Signed waiver (PDF)'];
    expect(file?.originalName).toBe('waiver.pdf');
    const download = await fetch(`${server.url}${file?.value ?? ''}`);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);
  });
});

describe.skipIf(!hasChromium)('customers without JavaScript behind one busy address', () => {
  // One response a few seconds per address: the second customer on the same connection (an event's Wi-Fi) is held.
  const WINDOW_MS = 4000;
  withServer({ RATE_LIMITS: JSON.stringify({ submissionsPerIp: { max: 1, windowMs: WINDOW_MS } }) });

  /** A customer in a browser of their own, JavaScript off, with every required answer given. */
  async function fillIn(name: string) {
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/customer/${form._id}/${owner.id}`);
    await page.getByLabel('Full name').fill(name);
    await page.getByLabel('Email').fill(`${name.split(' ')[0]?.toLowerCase()}@example.com`);
    await page.getByLabel('T-shirt size').selectOption('L');
    await page.getByRole('radio', { name: 'Morning' }).check();
    await page.getByRole('checkbox', { name: 'Bags' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2 · Files').waitFor();
    await page.getByLabel('Signed waiver (PDF)').setInputFiles(waiver);
    return { context, page };
  }
  let form: Form;
  let waiver: string;

  it('tells the second customer their answers were not sent and how long to wait; Back keeps them, and they are sent after', async () => {
    form = await createForm();
    waiver = join(files, 'waiver.pdf');
    await writeFile(waiver, PDF);
    // Both filled in before the first submits: the second's submit then comes within the window, however slowly a
    // busy machine fills a form in.
    const first = await fillIn('Ravi Kumar');
    const second = await fillIn('Meera Nair');
    await first.page.getByRole('button', { name: 'Submit' }).click();
    await first.page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    await first.context.close();

    const { page } = second;
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Your answers were not sent' }).waitFor();
    await page.getByText(/Wait a minute, then go back and send your answers again/).waitFor();
    expect(await page.getByRole('link', { name: 'Open an empty form' }).getAttribute('href')).toBe(
      `/customer/${form._id}/${owner.id}`,
    );
    await lookAt(page, 'nojs-not-sent');

    // What the page promises: Back shows the files step, which still carries every answer.
    await page.goBack();
    await page.getByText('Step 2 of 2 · Files').waitFor();
    expect(await page.locator('input[type="hidden"][value="Meera Nair"]').count()).toBe(1);
    expect(await page.locator('input[type="hidden"][value="Bags"]').count()).toBe(1);

    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    await page.getByLabel('Signed waiver (PDF)').setInputFiles(waiver);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(takeCspViolations()).toEqual([]);
    await second.context.close();

    const list = await call<{ total: number; items: { _id: string }[] }>(`/api/formSubmissions/${form._id}`);
    expect(list.total).toBe(2);
    const names = await Promise.all(
      list.items.map(
        async (item) => (await call<Submission>(`/api/forms/${item._id}`)).textObject['Full name'],
      ),
    );
    expect(names.sort()).toEqual(['Meera Nair', 'Ravi Kumar']);
  });
});
