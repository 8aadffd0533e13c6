// The form without JavaScript (issue 13 item 1, docs/decisions/024): its multipart POST through the same submitter
// as the JSON API. The page drawn whole on the server: html-page.test.ts.
import { describe, expect, it } from 'vitest';
import { NO_SETTINGS } from '#common/form-settings.ts';
import type { Submission } from '#common/submissions.ts';
import { PDF } from '../../../testing/test-files.ts';
import { fullAnswers, idOf, owner, replacing, setUpHtmlForm, t, tokenIn } from './test-fixture.ts';

const { as, countOf, makeForm, page, post, unclaimedOf } = setUpHtmlForm();

describe('POST /customer/{fid}/{id}', () => {
  it('stores the answers and the file, which the owner then sees, and thanks the customer', async () => {
    const f = await makeForm('Stored booking');
    const res = await post(fullAnswers(f, tokenIn((await page(f)).body)), f);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Submitted successfully');
    expect(res.body).toContain('Your response to <strong dir="auto">Stored booking</strong> was sent.');
    expect(res.body).not.toContain('<script type="module"');
    expect(await countOf(f)).toBe(1);
    const list = await as(owner).get(`/api/formSubmissions/${f._id}`);
    const id = list.json<{ items: { _id: string }[] }>().items[0]?._id;
    const one = (await as(owner).get(`/api/forms/${id}`)).json<Submission>();
    expect(one.textObject).toMatchObject({ Name: 'Priya Sharma', Email: 'priya@example.com' });
    expect(one.selectedValues).toEqual({ Room: 'Double' });
    expect(one.selectedRadio).toEqual({ Meal: 'Veg' });
    expect(one.selectedCheckboxes).toEqual([{ name: 'Extras', values: ['Wifi', 'Parking'] }]);
    expect(one.fileObject['ID proof']?.originalName).toBe('passport.pdf');
    const file = await t.app.inject({ method: 'GET', url: one.fileObject['ID proof']?.value ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('sends the page back at the step to fix with every answer kept, the message at its question and a summary', async () => {
    const f = await makeForm('Kept answers');
    const token = tokenIn((await page(f)).body);
    const parts = fullAnswers(f, token).filter(([name]) => name !== idOf(f, 'Name'));
    const res = await post(parts, f);
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const nameId = idOf(f, 'Name');
    expect(html).toContain(
      `<a href="#q-${nameId}"><span dir="auto">Name</span>: This question is required</a>`,
    );
    // With no script to move it, the focus starts on the summary (autofocus), and the title, the first thing a
    // screen reader reads of the new page, says it was refused: otherwise it is the form's title as before.
    expect(html).toMatch(/<div class="fill-card fill-summary" role="alert"[^>]* tabindex="-1" autofocus>/);
    expect(html).toContain('<title>Error: Kept answers · Easy Form</title>');
    // A missing radio answer's link takes the focus to the group's first option (a fieldset takes none).
    const mealLink = /<a href="#([^"]+)"><span dir="auto">Meal<\/span>/.exec(
      (
        await post(
          parts.filter(([name]) => name !== idOf(f, 'Meal')),
          f,
        )
      ).body,
    );
    expect(mealLink?.[1]).toBe(`q-${idOf(f, 'Meal')}-first`);
    expect(html).toMatch(new RegExp(`<input id="q-${idOf(f, 'Meal')}-first" type="radio"[^>]* value="Veg"`));
    expect(html).toMatch(new RegExp(`<p class="field-error fill-error" id="q-${nameId}-error" dir="auto">`));
    expect(html).toMatch(
      new RegExp(`id="q-${nameId}"[^>]*aria-invalid="true" aria-describedby="q-${nameId}-error"`),
    );
    expect(html).toContain(`id="q-${nameId}-error"`);
    expect(html).toContain('value="priya@example.com"');
    expect(html).toContain('<option value="Double" dir="auto" selected>');
    expect(html).toMatch(/value="Veg" checked/);
    expect(html).toMatch(/value="Wifi" checked/);
    expect(html).toMatch(/value="Parking" checked/);
    // The answer to fix is on the first step, drawn with them; the file is asked for at the next.
    expect(html).toContain('<p class="fill-step">Step 1 of 2 · Your answers</p>');
    expect(html).not.toContain('type="file"');
    expect(tokenIn(html)).toBe(token);
    expect(await countOf(f)).toBe(0);
    // Fixed and sent again from that page: stored once.
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('joins a question that ends in its own punctuation to its message without another colon, in any script', async () => {
    const f = await makeForm('Punctuation', [
      { id: 4, name: 'Which activities interest you?', options: [{ value: 'Music' }], required: true },
      { id: 3, name: 'هل ستحضر؟', options: [{ value: 'نعم' }], required: true },
      { id: 1, name: 'Your name:', type: 'text', required: true },
      { id: 1, name: 'Phone', type: 'tel', required: true },
    ]);
    const res = await post([['token', tokenIn((await page(f)).body)]], f);
    expect(res.statusCode).toBe(200);
    const summary = /<ul>(.*?)<\/ul>/.exec(res.body)?.[1] ?? '';
    expect(summary).toContain(
      '<span dir="auto">Which activities interest you?</span> Tick at least one option',
    );
    expect(summary).toContain('<span dir="auto">هل ستحضر؟</span> ');
    expect(summary).toContain('<span dir="auto">Your name:</span> This question is required');
    expect(summary).toContain('<span dir="auto">Phone</span>: This question is required');
    expect(summary).not.toMatch(/[?؟:]<\/span>:/);
  });

  it('stores one response when the same page is sent twice (Back and Submit, a double click)', async () => {
    const f = await makeForm('Twice');
    const token = tokenIn((await page(f)).body);
    const [first, second] = await Promise.all([
      post(fullAnswers(f, token), f),
      post(fullAnswers(f, token), f),
    ]);
    expect([first?.statusCode, second?.statusCode]).toEqual([200, 200]);
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('sends the page back with every answer kept when one holds a NUL, the message at that question', async () => {
    const f = await makeForm('NUL answer');
    const parts = fullAnswers(f, tokenIn((await page(f)).body)).map(
      replacing(idOf(f, 'Name'), 'Priya\u0000Sharma'),
    );
    const res = await post(parts, f);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('This answer contains a NUL character (U+0000), which cannot be stored.');
    expect(res.body).toContain('value="Priya\ufffdSharma"');
    expect(res.body).toContain('value="priya@example.com"');
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('tells a customer who went Back, changed answers and sent the page again that the first were kept, answers kept for a new response', async () => {
    const f = await makeForm('Back and change');
    const token = tokenIn((await page(f)).body);
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
    const changed = fullAnswers(f, token).map(replacing(idOf(f, 'Name'), 'Priya S. Sharma'));
    const res = await post(changed, f);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(
      'This page was sent before, with other answers, and those were kept. Submit to send these answers as a new response.',
    );
    expect(res.body).toContain('value="Priya S. Sharma"');
    expect(await countOf(f)).toBe(1);
    expect(await unclaimedOf(f)).toBe(0);
    // The page comes back with a fresh token: Submit stores the changed answers as a second response.
    const fresh = tokenIn(res.body);
    expect(fresh).not.toBe(token);
    const again = changed.map(replacing('token', fresh));
    expect((await post(again, f)).statusCode).toBe(200);
    expect(await countOf(f)).toBe(2);
  });

  it('drops a submission whose honeypot is filled, thanking it all the same', async () => {
    const f = await makeForm('Bots');
    const parts = fullAnswers(f, tokenIn((await page(f)).body)).map(
      replacing('website', 'http://spam.example'),
    );
    const res = await post(parts, f);
    expect(res.statusCode).toBe(200);
    expect(await countOf(f)).toBe(0);
  });

  it('answers a closed form with its closed message under its title', async () => {
    const f = await makeForm('Closed now');
    const token = tokenIn((await page(f)).body);
    await as(owner).put(`/api/updateFormEntry/${f._id}`, { acceptingResponses: false });
    const res = await post(fullAnswers(f, token), f);
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('This form is closed');
    expect(res.body).toContain('<h1 dir="auto">Closed now</h1>');
    expect(await countOf(f)).toBe(0);
  });

  it("shows the owner's thank-you message and a link to their address", async () => {
    const f = await makeForm('With redirect');
    await as(owner).put(`/api/formSettings/${f._id}`, {
      ...NO_SETTINGS,
      thankYouMessage: 'See you <soon>',
      redirectUrl: 'https://example.com/next?a=1&b=2',
    });
    const res = await post(fullAnswers(f, tokenIn((await page(f)).body)), f);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('See you &lt;soon&gt;');
    expect(res.body).toContain('href="https://example.com/next?a=1&amp;b=2"');
  });
});
