// A customer opens a form: the server's page before any script, the script taking over where the customer is, the
// page for a form that is not there, and a form without files sent from /preview. (customer-fill.test.ts has a
// form with files, and the keyboard alone.)
import { describe, expect, it } from 'vitest';
import { hasChromium, newPage, openForm, PHONE, screenshot, watchForErrors } from './support/browser.ts';
import {
  browser,
  call,
  customerLink,
  formWith,
  newestResponse,
  owner,
  responseIds,
  screenshotAt,
  server,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

/** The chunk at `path` and those it imports statically, theirs too, whose code holds `marker`. */
async function staticImportsHolding(path: string, marker: string): Promise<string[]> {
  const seen = new Set<string>();
  const holding: string[] = [];
  const visit = async (chunk: string): Promise<void> => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    const code = await (await fetch(`${server.url}${chunk}`)).text();
    if (code.includes(marker)) holding.push(chunk);
    // `import{…}from"./a.js"` and `import"./a.js"`; not `import("./a.js")`, loaded later.
    for (const [, name] of code.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g))
      await visit(new URL(name ?? '', `http://chunk${chunk}`).pathname);
  };
  await visit(path);
  return holding;
}

// Skipped only where Chromium is missing; support/browser.ts prints why, and .ci/run installs it.
describe.skipIf(!hasChromium)('a customer opens a form on a phone', () => {
  setUpCustomerJourneys();

  it("keeps what the customer typed in the server's form, and the focus, when the script takes over", async () => {
    const form = await formWith('Bike repair', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 3, name: 'Bike type', options: [{ value: 'Road' }, { value: 'City' }] },
      { id: 4, name: 'Also check', options: [{ value: 'Brakes' }, { value: 'Lights' }] },
      { id: 1, name: 'What is wrong?', type: 'textarea' },
    ]);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    // A slow phone network: the page's script arrives only when this test lets it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/customer-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(customerLink(form));
    const serverForm = page.locator('form[method="post"]');
    await serverForm.getByLabel('Your name').fill('Ravi Kumar');
    await serverForm.getByLabel('City').check();
    await serverForm.getByLabel('Lights').check();
    await serverForm.getByLabel('What is wrong?').fill('The chain slips');
    await serverForm.getByLabel('What is wrong?').focus();
    // The caret mid-text, after "The chain": the customer goes back to add a word.
    await page.evaluate(() => (document.activeElement as HTMLTextAreaElement).setSelectionRange(9, 9));
    release();
    await page.waitForURL(/\/preview$/);
    await serverForm.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Your name').inputValue()).toBe('Ravi Kumar');
    expect(await page.getByLabel('City').isChecked()).toBe(true);
    expect(await page.getByLabel('Road').isChecked()).toBe(false);
    expect(await page.getByLabel('Lights').isChecked()).toBe(true);
    expect(await page.getByLabel('Brakes').isChecked()).toBe(false);
    expect(await page.getByLabel('What is wrong?').inputValue()).toBe('The chain slips');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    expect(await page.evaluate(() => (document.activeElement as HTMLTextAreaElement).selectionStart)).toBe(9);
    // The carried answers are the saved ones: a reload keeps them, and Submit stores them.
    await page.reload();
    expect(await page.getByLabel('Your name').inputValue()).toBe('Ravi Kumar');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(await responseIds(form)).toHaveLength(1);
    const stored = await newestResponse(form);
    expect(stored.textObject).toEqual({ 'Your name': 'Ravi Kumar', 'What is wrong?': 'The chain slips' });
    expect(stored.selectedRadio).toEqual({ 'Bike type': 'City' });
    expect(stored.selectedCheckboxes).toEqual([{ name: 'Also check', values: ['Lights'] }]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('loads no React until the customer touches the form, and then takes over where they tapped', async () => {
    // A dropdown too: untouched, it shows its first option, which is not an answer and must not start React.
    const form = await formWith('Read first', [
      { id: 1, name: 'Your name', type: 'text', required: true },
      { id: 2, name: 'Room', options: [{ value: 'Shared' }, { value: 'Single' }] },
    ]);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    /** What the page has fetched, by the extension of its path. */
    const fetched = (extension: string) =>
      page.evaluate(
        (ext) =>
          performance
            .getEntriesByType('resource')
            .map((r) => new URL(r.name).pathname)
            .filter((path) => path.endsWith(ext)),
        extension,
      );
    const scripts = () => fetched('.js');
    await page.goto(customerLink(form), { waitUntil: 'networkidle' });
    // The small entry ran (it keeps the form on the device for an offline reload), and nothing more.
    await page.waitForFunction((fid) => localStorage.getItem('fid') === fid, form._id);
    await page.waitForLoadState('networkidle');
    expect(await scripts()).not.toContainEqual(expect.stringMatching(/\/assets\/(react|take-over)-/));
    // Even that entry is asked for only once the form's first paint has been shown, so it never delays it.
    const order = await page.evaluate(() => ({
      painted: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
      entry:
        performance
          .getEntriesByType('resource')
          .find((r) => /^\/assets\/customer-[\w-]+\.js$/.test(new URL(r.name).pathname))?.startTime ?? -1,
    }));
    expect(order.entry).toBeGreaterThan(order.painted);
    expect(new URL(page.url()).pathname).toBe(`/customer/${form._id}/${owner.id}`);
    await page.locator('form[method="post"]').getByLabel('Your name').click();
    await page.waitForURL(/\/preview$/);
    expect(await scripts()).toContainEqual(expect.stringMatching(/\/assets\/take-over-/));
    // What the take-over needs before it can draw the form holds no validation code (zod, some 30 KiB gzip): that
    // loads beside it, once the customer is on a question.
    const takeOver = (await scripts()).find((path) => path.includes('/assets/take-over-')) ?? '';
    expect(await staticImportsHolding(takeOver, 'ZodError')).toEqual([]);
    // The form's rules came with the page: React's chunks do not fetch them again.
    expect(await fetched('.css')).toEqual([]);
    await page.keyboard.type('Asha');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Asha');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows a friendly page for an unknown form and for /preview opened without a link', async () => {
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    await page.goto(`${server.url}/customer/00000000-0000-4000-8000-000000000000/${owner.id}`);
    await page.getByRole('heading', { name: 'This form is no longer available' }).waitFor();
    await page.getByText('Check the link with whoever sent it to you').waitFor();
    await screenshot(page, 'fill-unavailable');
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${server.url}/fileUpload`);
    await page.getByRole('heading', { name: 'This form is no longer available' }).waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('submits a form without files from /preview and warns about password questions', async () => {
    const form = await formWith('Wi-Fi access', [
      { id: 1, name: 'Guest password', type: 'password', required: true },
    ]);
    const page = await newPage(browser, PHONE);
    const errors = watchForErrors(page);
    await openForm(page, customerLink(form));
    await page.getByRole('note').getByText('Never enter a password you use elsewhere').waitFor();
    expect(await page.locator('input[name="website"]').getAttribute('aria-hidden')).toBe('true');
    expect(await page.locator('input[name="website"]').getAttribute('tabindex')).toBe('-1');
    await page.getByLabel('Guest password').fill('sunny-day-42');

    // A cut connection is retried by the page itself (issue 13); a server that keeps failing (500: a fault, not a
    // 502–504 while it is away, whose answers wait on the device instead) is retried a few times, then the customer
    // is asked to try again. Every attempt sends the same Idempotency-Key.
    const keys: (string | undefined)[] = [];
    const serverFault = { error: { code: 'INTERNAL', message: 'Internal error' } };
    await page.route('**/api/forms/*', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length === 1) await route.abort('internetdisconnected');
      else if (keys.length <= 5) await route.fulfill({ status: 500, json: serverFault });
      else await route.continue();
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Your answers were not sent.').waitFor();
    expect(keys).toHaveLength(5);
    await screenshotAt(page, 'fill-submit-retry', [390]);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(keys).toHaveLength(6);
    expect(keys[0]).toMatch(/^[\w-]{8,}$/);
    expect(new Set(keys).size).toBe(1);
    const summary = await call<{ _id: string; count: number }[]>('/api/formSummary', { token: owner.token });
    expect(summary.find((s) => s._id === form._id)?.count).toBe(1);
    // The browser logs the connection we cut and the 500s on purpose; nothing else may be logged.
    expect(errors.filter((e) => !/ERR_INTERNET_DISCONNECTED|status of 500/.test(e))).toEqual([]);
    await page.close();
  });
});
