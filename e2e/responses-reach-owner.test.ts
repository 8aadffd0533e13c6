import type { IncomingHttpHeaders } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '../src/common/forms.ts';
import { eventually } from '../src/server/testing/eventually.ts';
import { startReceiver, verify } from '../src/server/testing/webhook-receiver.ts';
import { apiCall } from './support/api.ts';
import {
  DESKTOP,
  hasChromium,
  launchBrowser,
  newPage,
  openForm,
  PHONE,
  screenshotBoth,
  watchForErrors,
} from './support/browser.ts';
import { createOwner, signInBrowser, type TestOwner } from './support/owner.ts';
import { startServer, type RunningServer } from './support/server.ts';

/** What the owner's receiver does with the secret it was shown (docs/api.md). */
const signedWith = (secret: string, received: { headers: IncomingHttpHeaders; body: string } | undefined) =>
  received !== undefined &&
  verify(secret, String(received.headers['easyform-signature'] ?? ''), received.body);

let server: RunningServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let browser: Browser;
let owner: TestOwner;
let form: Form;

/** A form with a name and a choice, made through the API as the editor would. */
async function createForm(): Promise<Form> {
  const call = (path: string, body: object) => apiCall<Form>(server, path, { body, token: owner.token });
  const created = await call('/api/v1/length', { formTitle: 'Workshop sign-up' });
  await call(`/api/text/${created._id}`, { id: 1, name: 'Your name', type: 'text', required: true });
  return call(`/api/text/${created._id}`, {
    id: 3,
    name: 'Which session?',
    options: [{ value: 'Morning' }, { value: 'Afternoon' }],
    required: true,
  });
}

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('a response reaches the owner by mail, webhook and results', () => {
  beforeAll(async () => {
    receiver = await startReceiver();
    // The receiver is on this machine: the operator's switch lets webhooks reach it (docs/decisions/023).
    server = await startServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    browser = await launchBrowser();
    owner = await createOwner(server);
    form = await createForm();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await receiver?.close();
  });

  it('the owner adds a webhook and tests it; a customer submits; the owner gets the mail, the delivery and the chart', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    await signInBrowser(context, owner);
    const page = await context.newPage();
    const errors = watchForErrors(page);

    await page.goto(`${server.url}/makeForms?fid=${form._id}`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    // New forms mail their owner about each response.
    expect(await page.getByLabel('Email me when a response arrives').isChecked()).toBe(true);

    // A bad address is refused at its field.
    const endpoint = page.getByLabel('Endpoint URL');
    await endpoint.fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByText('Must be an http:// or https:// address').waitFor();
    expect(await endpoint.getAttribute('aria-invalid')).toBe('true');

    // Added: the secret is shown this once.
    await endpoint.fill(receiver.url);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByRole('heading', { name: 'Webhook added' }).waitFor();
    const secret = (await page.locator('.secret-value').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    await page.getByText('None yet: each new response is listed here').waitFor();
    await screenshotBoth(page, 'form-webhook-added');
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('.secret-value').count()).toBe(0);

    // Send test: a signed example reaches the receiver, and the owner sees how it answered.
    await page.getByRole('button', { name: `Send test to ${receiver.url}` }).click();
    await page.getByText(/Test delivered: HTTP 200 in \d+ ms/).waitFor();
    const test = receiver.received.at(-1);
    expect(signedWith(secret, test)).toBe(true);
    expect(JSON.parse(test?.body ?? '{}')).toMatchObject({ event: 'webhook.test' });

    // The receiver is struggling when the response comes: the first delivery gets a 503.
    receiver.plan.push(503);
    const mailsBefore = server.mail.mails.length;
    const customer = await newPage(browser, PHONE);
    const customerErrors = watchForErrors(customer);
    await openForm(customer, `${server.url}/customer/${form._id}/${owner.id}`);
    await customer.getByLabel(/^Your name/).fill('Kiran Shah');
    await customer.getByRole('radio', { name: 'Afternoon' }).check();
    await customer.getByRole('button', { name: 'Submit' }).click();
    await customer.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(customerErrors).toEqual([]);
    await customer.close();

    // The owner's mail: the answers and a link that opens the response.
    const mail = await server.mail.waitFor(owner.email, { since: mailsBefore });
    expect(mail.subject).toBe('New response to "Workshop sign-up"');
    expect(mail.text).toContain('Kiran Shah');
    const link = /https?:\/\/\S+\/submitedForm\/[\w-]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();

    // The delivery: refused once, logged as retrying with the receiver's answer.
    await eventually(() => receiver.received.length >= 2, 15_000);
    const delivered = receiver.received[1];
    expect(signedWith(secret, delivered)).toBe(true);
    const payload = JSON.parse(delivered?.body ?? '{}') as { event: string; answers: { value: unknown }[] };
    expect(payload.event).toBe('response.created');
    expect(payload.answers.map((a) => a.value)).toEqual(['Kiran Shah', 'Afternoon']);
    await page.reload();
    const row = page.locator('.delivery-row').first();
    await row.getByText('Retrying').waitFor();
    await row.getByText(/1 attempt, last .*: HTTP 503 in \d+ ms/).waitFor();
    await row.getByText('All attempts').click();
    await row.locator('.attempt-list li').first().waitFor();
    await screenshotBoth(page, 'form-webhook-log');

    // From the mail to the response.
    await page.goto(link ?? '');
    await page.getByText('Kiran Shah').waitFor();

    // The results: one response, all of it for the afternoon.
    await page.goto(`${server.url}/makeForms?fid=${form._id}`);
    await page.getByRole('link', { name: 'Results' }).click();
    await page.getByRole('heading', { name: 'Which session?' }).waitFor();
    await page.getByText('1 · 100%').waitFor();
    await screenshotBoth(page, 'form-results-one');
    expect(errors).toEqual([]);
    await context.close();
  });
});
