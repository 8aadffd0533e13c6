// What the journeys share: one server, one browser and one owner for the file, the owner's calls to the API that
// set a form up, and the customer's link to it.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Form } from '../../src/common/forms.ts';
import type { Submission } from '../../src/common/submissions.ts';
import { apiCall, type CallInit } from './api.ts';
import { launchBrowser, PHONE, screenshot } from './browser.ts';
import { createOwner, type TestOwner } from './owner.ts';
import { startServer, type RunningServer } from './server.ts';

export let server: RunningServer;
export let browser: Browser;
export let owner: TestOwner;

export const call = <T>(path: string, init: CallInit = {}) => apiCall<T>(server, path, init);

/** A form of the owner's titled `formTitle`, with `questions` added in order (each a body of POST /api/text/:fid). */
export async function formWith(formTitle: string, questions: object[]): Promise<Form> {
  let form = await call<Form>('/api/v1/length', { body: { formTitle }, token: owner.token });
  for (const body of questions)
    form = await call<Form>(`/api/text/${form._id}`, { token: owner.token, body });
  return form;
}

/** Three required text questions, then a required radio group and a required checkbox group of three options each. */
export async function retreatBooking(): Promise<Form> {
  const options = ['One', 'Two', 'Three'].map((value) => ({ value }));
  return formWith('Retreat booking', [
    { id: 1, name: 'Full name', type: 'text', required: true },
    { id: 1, name: 'Email address', type: 'email', required: true },
    { id: 1, name: 'Home town', type: 'text', required: true },
    { id: 3, name: 'Room', options, required: true },
    { id: 4, name: 'Activities', options, required: true },
  ]);
}

/** The form's responses as its owner lists them, newest first. */
export const responseIds = async (form: Form) =>
  (await call<{ items: { _id: string }[] }>(`/api/formSubmissions/${form._id}`, { token: owner.token }))
    .items;

/** The newest response to the form, as its owner reads it in full. */
export async function newestResponse(form: Form): Promise<Submission> {
  const [newest] = await responseIds(form);
  return call<Submission>(`/api/forms/${newest?._id}`, { token: owner.token });
}

export const customerLink = (form: Form) => `${server.url}/customer/${form._id}/${owner.id}`;

export async function screenshotAt(page: Page, name: string, widths: number[]) {
  // Blur and scroll to the end, so the sticky button bar is drawn where it rests rather than mid-page.
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, document.documentElement.scrollHeight);
  });
  for (const width of widths) {
    await page.setViewportSize({ width, height: PHONE.height });
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await screenshot(page, name);
  }
  await page.setViewportSize(PHONE);
}

/** Starts the server and the browser and signs an owner up before the file's journeys; stops them after. */
export function setUpCustomerJourneys(): void {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await createOwner(server);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}
