// An owner in New York reads every time on New York's clock, not the server's (Kolkata): the list of forms, the
// responses table and a response, and the schedule; a date answer reads as a date. Choosing another zone in
// Settings moves every screen to it, and the account keeps it for the owner's other browsers.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatSpecDate, type Form } from '../src/common/forms.ts';
import type { Submission } from '../src/common/submissions.ts';
import { DESKTOP, hasChromium, PHONE, screenshotBoth, watchForErrors } from './support/browser.ts';
import { browser, call, owner, server, setUpCustomerJourneys } from './support/customer-journeys.ts';
import { signInBrowser } from './support/owner.ts';

/** A browser whose own clock is in `timezoneId`, signed in as the owner. */
async function browserIn(timezoneId: string, viewport = DESKTOP): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, timezoneId });
  await signInBrowser(context, owner);
  return context;
}

/** The Date and Time columns' words for an instant on `zone`'s clock: "12/21/2026" and "10:30:00 PM". */
const columnsIn = (iso: string, zone: string) => {
  const [date = '', time = ''] = formatSpecDate(new Date(iso), zone).split(', ');
  return { date, time };
};

/** The text of the table's row that holds `text`. */
const rowWith = (page: Page, text: string) => page.locator('tbody tr', { hasText: text }).first().innerText();

describe.skipIf(!hasChromium)("the owner's own time zone", () => {
  setUpCustomerJourneys();

  it('shows New York times to an owner in New York, and moves every screen to the zone chosen in Settings', async () => {
    let form = await call<Form>('/api/v1/length', {
      body: { formTitle: 'Lake house', template: 'contact' },
      token: owner.token,
    });
    form = await call<Form>(`/api/text/${form._id}`, {
      body: { id: 1, name: 'Arrival', type: 'date' },
      token: owner.token,
    });
    const [name, email, , message] = form.textField.map((f) => f._id);
    const arrival = form.textField.find((f) => f.name === 'Arrival')?._id ?? '';
    const { _id: responseId } = await call<{ _id: string }>(`/api/forms/${owner.id}`, {
      body: {
        formStructureId: form._id,
        formTitle: form.formTitle,
        textObject: {
          [name ?? '']: 'Dana Whitfield',
          [email ?? '']: 'dana@example.com',
          [message ?? '']: 'Hi',
          [arrival]: '2026-12-22',
        },
      },
    });
    const response = await call<Submission>(`/api/forms/${responseId}`, { token: owner.token });
    // 9:00 in the morning in New York on 15 January 2030: 19:30 in Kolkata, 23:00 in Tokyo.
    await call(`/api/formSettings/${form._id}`, {
      method: 'PUT',
      body: {
        opensAt: '2030-01-15T14:00:00.000Z',
        closesAt: null,
        responseLimit: null,
        closedMessage: '',
        thankYouMessage: '',
        redirectUrl: '',
      },
      token: owner.token,
    });

    const context = await browserIn('America/New_York');
    const page = await context.newPage();
    const errors = watchForErrors(page);

    // The list of forms: made on New York's clock.
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Lake house' }).waitFor();
    const made = columnsIn(form.createdAt, 'America/New_York');
    expect(await rowWith(page, 'Lake house')).toContain(`${made.date}\t${made.time}`);

    // The responses table and the response: sent on New York's clock, the arrival a date.
    const sent = columnsIn(response.createdAt, 'America/New_York');
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    await page.locator('tbody tr a').first().waitFor();
    expect(await rowWith(page, 'Dana Whitfield')).toContain(`${sent.date}\t${sent.time}`);
    expect(await rowWith(page, 'Dana Whitfield')).not.toContain(
      columnsIn(response.createdAt, 'Asia/Kolkata').time,
    );
    await page.locator('tbody tr a').first().click();
    await page.getByRole('heading', { name: 'Lake house' }).waitFor();
    const submitted = new Intl.DateTimeFormat('en-US', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'America/New_York',
    }).format(new Date(response.createdAt));
    expect(await page.getByText(/^Submitted /).innerText()).toBe(`Submitted ${submitted}`);
    expect(await page.locator('.answers').innerText()).toContain('22 Dec 2026');
    expect(await page.locator('.answers').innerText()).not.toContain('2026-12-22');

    // The schedule, named and on New York's clock; then Tokyo, chosen here and saved with the account.
    await page.goto(`${server.url}/formSettings?fid=${form._id}`);
    const opens = page.getByLabel('Open from');
    await opens.waitFor();
    expect(await opens.inputValue()).toBe('2030-01-15T09:00');
    await page.getByText('Times are in your time zone, America/New_York.').waitFor();
    await page.getByLabel('Your time zone').selectOption('Asia/Tokyo');
    await page.getByRole('status').getByText('All changes saved').waitFor();
    await page.getByText('Times are in your time zone, Asia/Tokyo.').waitFor();
    expect(await opens.inputValue()).toBe('2030-01-15T23:00');
    await screenshotBoth(page, 'settings-time-zone');

    // Every other screen follows, and the CSV asks for Tokyo's times.
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Lake house' }).waitFor();
    const inTokyo = columnsIn(form.createdAt, 'Asia/Tokyo');
    expect(await rowWith(page, 'Lake house')).toContain(`${inTokyo.date}\t${inTokyo.time}`);
    await page.goto(`${server.url}/formList?fid=${form._id}`);
    await page.locator('tbody tr a').first().waitFor();
    const sentInTokyo = columnsIn(response.createdAt, 'Asia/Tokyo');
    expect(await rowWith(page, 'Dana Whitfield')).toContain(`${sentInTokyo.date}\t${sentInTokyo.time}`);
    const csv = page.waitForRequest((request) => request.url().includes('/csv?'));
    await page.getByRole('button', { name: 'Download CSV' }).click();
    expect((await csv).url()).toContain('tz=Asia%2FTokyo');
    expect(errors).toEqual([]);
    await context.close();

    // The account keeps it: a fresh browser in New York, on a phone, shows Tokyo's times too.
    const phone = await browserIn('America/New_York', PHONE);
    const other = await phone.newPage();
    await other.goto(`${server.url}/formSettings?fid=${form._id}`);
    await other.getByText('Times are in your time zone, Asia/Tokyo.').waitFor();
    expect(await other.getByLabel('Open from').inputValue()).toBe('2030-01-15T23:00');

    // The account's Settings change it too: back to this browser's zone, and the schedule follows.
    await other.goto(`${server.url}/dashboard?tab=setting`);
    const choice = other.getByLabel('Your time zone');
    await choice.waitFor();
    expect(await choice.inputValue()).toBe('Asia/Tokyo');
    await choice.selectOption({ label: 'America/New_York (browser)' });
    await other.getByRole('status').getByText('All changes saved').waitFor();
    await other.getByText(/show times in America\/New_York/).waitFor();
    await screenshotBoth(other, 'account-time-zone', 'phone');
    await other.goto(`${server.url}/formSettings?fid=${form._id}`);
    await other.getByText('Times are in your time zone, America/New_York.').waitFor();
    expect(await other.getByLabel('Open from').inputValue()).toBe('2030-01-15T09:00');
    await phone.close();
  });
});
