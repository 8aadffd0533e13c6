// A customer without JavaScript reloads and goes Back through a form's pages (issue 37, the customer's item 1): every
// post answers with a redirect to a page (post/redirect/get, ADR 024), so the browser never sends the answers again,
// the address never holds a step's `?go=`, and the owner finds exactly one response.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PDF } from '../src/server/testing/test-files.ts';
import { hasChromium, PHONE, takeCspViolations } from './support/browser.ts';
import {
  browser,
  customerLink,
  formWith,
  newestResponse,
  responseIds,
  setUpCustomerJourneys,
} from './support/customer-journeys.ts';

setUpCustomerJourneys();

describe.skipIf(!hasChromium)('a customer without JavaScript reloads and goes Back', () => {
  it('never posts the answers again, and after the thanks Back shows an empty form', async () => {
    const form = await formWith('Library card', [
      { id: 1, name: 'Full name', type: 'text', required: true },
      { id: 1, name: 'Email', type: 'email', required: true },
      { id: 3, name: 'Branch', options: [{ value: 'North' }, { value: 'South' }], required: true },
      { id: 5, name: 'Proof of address', required: true },
    ]);
    const files = await mkdtemp(join(tmpdir(), 'easyform-history-'));
    const proof = join(files, 'proof.pdf');
    await writeFile(proof, PDF);
    const context = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false });
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    const address = () => new URL(page.url());

    await page.goto(customerLink(form));
    await page.getByLabel('Email').fill('asha@example.com');
    await page.getByRole('radio', { name: 'South' }).check();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('heading', { name: 'One answer needs your attention' }).waitFor();
    expect(posts).toHaveLength(1);
    expect(address().pathname).toMatch(/\/draft\/[\w-]{43}$/);
    expect(address().search).toBe('');

    // Reload fetches the page again, with the answers and the message, and posts nothing.
    await page.reload();
    await page.getByRole('heading', { name: 'One answer needs your attention' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('asha@example.com');
    expect(await page.getByRole('radio', { name: 'South' }).isChecked()).toBe(true);
    expect(posts).toHaveLength(1);

    await page.getByLabel('Full name').fill('Asha Rao');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Step 2 of 2 · Files').waitFor();
    expect(posts).toHaveLength(2);
    expect(address().search).toBe('');
    await page.reload();
    await page.getByText('Step 2 of 2 · Files').waitFor();
    expect(posts).toHaveLength(2);

    await page.getByLabel('Proof of address').setInputFiles(proof);
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();
    expect(posts).toHaveLength(3);
    expect(address().pathname).toBe(`/customer/${form._id}/${form.ownerIdAsStructureId}/sent`);
    await page.reload();
    await page.getByRole('heading', { name: 'Submitted successfully' }).waitFor();

    // Back through every page the customer saw: each shows the empty form, none the answers to send again.
    for (let step = 0; step < 2; step++) {
      await page.goBack();
      await page.getByText('Step 1 of 2 · Your answers').waitFor();
      expect(await page.getByLabel('Full name').inputValue()).toBe('');
      expect(await page.getByLabel('Email').inputValue()).toBe('');
      expect(await page.getByRole('heading', { name: 'One answer needs your attention' }).count()).toBe(0);
    }
    expect(posts).toHaveLength(3);
    expect(takeCspViolations()).toEqual([]);
    await context.close();
    await rm(files, { recursive: true, force: true });

    expect(await responseIds(form)).toHaveLength(1);
    const response = await newestResponse(form);
    expect(response.textObject).toEqual({ 'Full name': 'Asha Rao', Email: 'asha@example.com' });
    expect(response.selectedRadio).toEqual({ Branch: 'South' });
  });
});
