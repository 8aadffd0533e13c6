import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  openForm,
  pageNow,
  PHONE,
  screenshotBoth,
  watchForErrors,
  whileClockHeld,
} from './support/browser.ts';
import { createOwner, signInBrowser, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let browser: Browser;
let owner: TestOwner;
let form: Form;

/** A blank form with one question, made through the API as the dashboard would. */
async function createSmallForm(): Promise<Form> {
  const call = async (path: string, body: object) => {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify(body),
    });
    return (await response.json()) as Form;
  };
  const created = await call('/api/v1/length', { formTitle: 'Beach clean-up volunteers' });
  return call(`/api/text/${created._id}`, { id: 1, name: 'Your name', type: 'text', required: true });
}

const customerLink = () => `${server.url}/customer/${form._id}/${owner.id}`;

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('an owner limits a form and a customer meets the limit', () => {
  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    owner = await createOwner(server);
    form = await createSmallForm();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sets a limit of one with messages and a redirect; the first customer is thanked and sent on, the next told it is closed', async () => {
    // The owner is in New York: the schedule is in their zone, not the server's.
    const context = await browser.newContext({ viewport: DESKTOP, timezoneId: 'America/New_York' });
    await signInBrowser(context, owner);
    const page = await context.newPage();
    const errors = watchForErrors(page);

    // From the editor to the form's Settings page.
    await page.goto(`${server.url}/makeForms?fid=${form._id}`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByText('Times are in your time zone, America/New_York.').waitFor();

    // A bad redirect is refused by the server and shown at its field.
    const redirect = page.getByLabel('Redirect to (optional)');
    // A setting saves as the owner leaves it, with the editor's status; there is no Save button.
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    await redirect.fill('ftp://example.com/thanks');
    await redirect.press('Tab');
    await page.getByText('Redirect URL must start with http:// or https://').waitFor();
    expect(await redirect.getAttribute('aria-invalid')).toBe('true');
    await screenshotBoth(page, 'form-settings-error');

    await page.getByLabel('Close after this many responses').fill('1');
    await page
      .getByLabel('Message when the form is closed')
      .fill('Thanks, we have enough volunteers this time.');
    await page
      .getByLabel('Thank-you message')
      .fill('See you on Saturday at 9 at the north end of the beach!');
    await redirect.fill(`${server.url}/notReady`);
    await redirect.press('Tab');
    await page.getByRole('status').getByText('All changes saved').waitFor();
    expect(await redirect.getAttribute('aria-invalid')).toBeNull();
    await screenshotBoth(page, 'form-settings');

    // The first customer is thanked in the owner's words, told where they are going, and sent there. The page's
    // clock stands still from the press of Submit while the thank-you is screenshotted (a loaded machine can take
    // longer than the 5 s countdown over the screenshots and axe at two widths), then runs the countdown out.
    const first = await newPage(browser, PHONE);
    const firstErrors = watchForErrors(first);
    await first.clock.install();
    await openForm(first, customerLink());
    await first.getByLabel(/^Your name/).fill('Meera');
    const pressed = (await pageNow(first)) + 1000;
    await first.clock.pauseAt(pressed);
    await first.getByRole('button', { name: 'Submit' }).click();
    await first.getByText('See you on Saturday at 9 at the north end of the beach!').waitFor();
    await first.getByText(/Taking you to 127\.0\.0\.1:\d+ in 5 seconds/).waitFor();
    const thanked = first.url();
    await whileClockHeld(first, () => screenshotBoth(first, 'fill-thank-you'));
    // Five seconds after the press on the page's clock, not before, the owner's address opens.
    await first.clock.runFor(pressed + 4900 - (await pageNow(first)));
    expect(first.url()).toBe(thanked);
    await first.clock.runFor(100);
    await first.waitForURL(/\/notReady$/);
    expect(firstErrors).toEqual([]);
    await first.close();

    // The form is full: the next customer gets the owner's closed message.
    const next = await newPage(browser, PHONE);
    const nextErrors = watchForErrors(next);
    await next.goto(customerLink());
    await next.getByRole('heading', { name: 'This form is closed' }).waitFor();
    // Which form is closed: its title, as the page's main heading, once the script has taken over as before it.
    await next.getByRole('heading', { level: 1, name: 'Beach clean-up volunteers' }).waitFor();
    expect(await next.title()).toBe('Closed: Beach clean-up volunteers · Easy Form');
    await next.getByText('Thanks, we have enough volunteers this time.').waitFor();
    await screenshotBoth(next, 'fill-closed-limit');
    expect(nextErrors).toEqual([]);
    await next.close();

    // The owner's page counts the response, and the list of forms marks the form full.
    await page.reload();
    await page.getByText('1 response so far.').waitFor();
    await page.goto(`${server.url}/dashboard`);
    await page.locator('tbody tr', { hasText: 'Beach clean-up volunteers' }).getByText('Full').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
