// The form without JavaScript (issue 13 item 1, docs/decisions/024): its multipart POST through the same submitter
// as the JSON API. The page drawn whole on the server: html-page.test.ts.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NO_SETTINGS } from '#common/form-settings.ts';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { PDF, PNG } from '../test-files.ts';
import {
  auth,
  countOf,
  idOf,
  makeForm,
  multipartOf,
  owner,
  page,
  post,
  randomUUIDLike,
  setUpHtmlForm,
  t,
  tokenIn,
  unclaimedOf,
  type Part,
} from './html-test-fixture.ts';

setUpHtmlForm();

/** A map over a post's parts that sends `value` for the part named `name` instead. */
const replacing =
  (name: string, value: Part[1]) =>
  ([n, v]: Part): Part =>
    (n === name ? [n, value] : [n, v]) as Part;

function fullAnswers(f: Form, token: string): Part[] {
  return [
    ['token', token],
    [idOf(f, 'Name'), 'Priya Sharma'],
    [idOf(f, 'Email'), 'priya@example.com'],
    [idOf(f, 'Phone'), ''],
    [idOf(f, 'Arrival'), ''],
    [idOf(f, 'Secret word'), ''],
    [idOf(f, 'Room'), 'Double'],
    [idOf(f, 'Meal'), 'Veg'],
    [idOf(f, 'Extras'), 'Wifi'],
    [idOf(f, 'Extras'), 'Parking'],
    [idOf(f, 'ID proof'), { filename: 'passport.pdf', content: PDF }],
    ['website', ''],
  ];
}

describe('POST /customer/{fid}/{id}', () => {
  it('stores the answers and the file, which the owner then sees, and thanks the customer', async () => {
    const f = await makeForm('Stored booking');
    const res = await post(fullAnswers(f, tokenIn((await page(f)).body)), f);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Submitted successfully');
    expect(res.body).toContain('Your response to <strong dir="auto">Stored booking</strong> was sent.');
    expect(res.body).not.toContain('<script type="module"');
    expect(await countOf(f)).toBe(1);
    const list = await t.app.inject({ method: 'GET', url: `/api/formSubmissions/${f._id}`, headers: auth() });
    const id = list.json<{ items: { _id: string }[] }>().items[0]?._id;
    const one = (
      await t.app.inject({ method: 'GET', url: `/api/forms/${id}`, headers: auth() })
    ).json<Submission>();
    expect(one.textObject).toMatchObject({ Name: 'Priya Sharma', Email: 'priya@example.com' });
    expect(one.selectedValues).toEqual({ Room: 'Double' });
    expect(one.selectedRadio).toEqual({ Meal: 'Veg' });
    expect(one.selectedCheckboxes).toEqual([{ name: 'Extras', values: ['Wifi', 'Parking'] }]);
    expect(one.fileObject['ID proof']?.originalName).toBe('passport.pdf');
    const file = await t.app.inject({ method: 'GET', url: one.fileObject['ID proof']?.value ?? '' });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
  });

  it('sends the page back (422) with every answer kept, the message at its question and a summary', async () => {
    const f = await makeForm('Kept answers');
    const token = tokenIn((await page(f)).body);
    const parts = fullAnswers(f, token).filter(([name]) => name !== idOf(f, 'Name'));
    const res = await post(parts, f);
    expect(res.statusCode).toBe(422);
    const html = res.body;
    const nameId = idOf(f, 'Name');
    expect(html).toContain(
      `<a href="#q-${nameId}"><span dir="auto">Name</span>: This question is required</a>`,
    );
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
    expect(html).toContain('Choose the file again');
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
    expect(res.statusCode).toBe(422);
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

  it('sends the page back (422) with every answer kept when one holds a NUL, the message at that question', async () => {
    const f = await makeForm('NUL answer');
    const parts = fullAnswers(f, tokenIn((await page(f)).body)).map(
      replacing(idOf(f, 'Name'), 'Priya\u0000Sharma'),
    );
    const res = await post(parts, f);
    expect(res.statusCode).toBe(422);
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
    expect(res.statusCode).toBe(409);
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

  it('refuses bad bodies with a 4xx page, never a 500, storing nothing', async () => {
    const f = await makeForm('Hostile bodies');
    const token = tokenIn((await page(f)).body);
    const answers = fullAnswers(f, token);
    const cases: { name: string; send: () => ReturnType<typeof post> }[] = [
      { name: 'no fields', send: () => post([], f) },
      {
        name: 'missing token',
        send: () =>
          post(
            answers.filter(([n]) => n !== 'token'),
            f,
          ),
      },
      {
        name: 'huge field',
        send: () =>
          post(
            [
              ['token', token],
              [idOf(f, 'Name'), 'x'.repeat(100_000)],
            ],
            f,
          ),
      },
      {
        name: '100 kB field name',
        send: () =>
          post(
            [
              ['token', token],
              ['n'.repeat(100_000), 'x'],
            ],
            f,
          ),
      },
      {
        name: 'wrong file type',
        send: () =>
          post(answers.map(replacing(idOf(f, 'ID proof'), { filename: 'virus.exe', content: PNG })), f),
      },
      {
        name: 'a PNG named .pdf',
        send: () =>
          post(answers.map(replacing(idOf(f, 'ID proof'), { filename: 'id.pdf', content: PNG })), f),
      },
      {
        name: 'too many files',
        send: () => post([...answers, [idOf(f, 'ID proof'), { filename: 'second.pdf', content: PDF }]], f),
      },
      {
        name: 'malformed multipart',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${owner.id}`,
            headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
            payload: '--xyz\r\nContent-Disposition: form-data; name="token"\r\n\r\nabc',
          }),
      },
      {
        name: 'not multipart',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${owner.id}`,
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: 'token=abc',
          }),
      },
      {
        name: 'another owner',
        send: () =>
          t.app.inject({
            method: 'POST',
            url: `/customer/${f._id}/${randomUUIDLike()}`,
            ...multipartOf(answers),
          }),
      },
    ];
    for (const { name, send } of cases) {
      const res = await send();
      expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).toBeLessThan(500);
      expect(res.body, name).toContain('<html');
    }
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('answers a refusal made before the form is read (a body too large, the limit per address) with a page, not JSON', async () => {
    const f = await makeForm('Refused early');
    const url = `/customer/${f._id}/${owner.id}`;
    // Its own address, so that the limit it reaches holds back no other test.
    const from = { remoteAddress: '203.0.113.77' };
    const large = await t.app.inject({
      method: 'POST',
      url,
      ...from,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `token=${'x'.repeat(70 * 1024)}`,
    });
    expect(large.statusCode).toBe(413);
    expect(large.headers['content-type']).toMatch(/^text\/html/);
    expect(large.body).toContain('The form sent more than it asks for.');
    expect(large.body).toContain(
      `class="button button-primary button-block" href="${url}">Open the form again<`,
    );

    const token = tokenIn((await page(f)).body);
    let limited: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 200 && !limited; i++) {
      const res = await t.app.inject({ method: 'POST', url, ...from, ...multipartOf([['token', token]]) });
      if (res.statusCode === 429) limited = res;
    }
    expect(limited?.headers['content-type']).toMatch(/^text\/html/);
    expect(limited?.body).toContain('Your answers were not sent');
    expect(limited?.body).toMatch(
      /Too many responses came from this connection in a short time\. Wait (a minute|\d+ minutes), then go back/,
    );
    // Back is the way to the answers; the link opens an empty form, says so, and does not look like the way back.
    expect(limited?.body).toContain(
      `class="button button-secondary button-block" href="${url}">Open an empty form<`,
    );
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // The JSON submit shares the limit, and the customer's React page shows its message as it comes.
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/forms/${owner.id}`,
      ...from,
      payload: { formStructureId: f._id },
    });
    expect(json.statusCode).toBe(429);
    expect(json.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          /^Too many responses came from this connection in a short time\. Wait (a minute|\d+ minutes) and send your answers again\.$/,
        ) as unknown,
      },
    });
    // Another address is not held back.
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
  });

  it('answers a fault of ours with a page naming its reference, and stores nothing', async () => {
    const f = await makeForm('Our fault');
    const token = tokenIn((await page(f)).body);
    // A real fault: the database refuses every new submission row until the constraint is dropped.
    await t.app.db.query('alter table submissions add constraint refuse_all check (false) not valid');
    try {
      const res = await post(fullAnswers(f, token), f);
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('Your answers were not sent');
      expect(res.body).toMatch(
        /Something went wrong on our side\. Go back and send your answers again in a moment\. Reference: [\w-]+/,
      );
      expect(res.body).toContain(
        `class="button button-secondary button-block" href="/customer/${f._id}/${owner.id}">Open an empty form<`,
      );
    } finally {
      await t.app.db.query('alter table submissions drop constraint refuse_all');
    }
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
    // Sent again once the fault is gone: stored once.
    expect((await post(fullAnswers(f, token), f)).statusCode).toBe(200);
    expect(await countOf(f)).toBe(1);
  });

  it('answers a fault of ours while keeping a file with the reference page (a 500 logged), not "could not be read"', async () => {
    const f = await makeForm('Storage fault');
    const token = tokenIn((await page(f)).body);
    await t.app.db.query('alter table uploads add constraint refuse_all check (false) not valid');
    try {
      const res = await post(fullAnswers(f, token), f);
      expect(res.statusCode).toBe(500);
      expect(res.body).toMatch(/Something went wrong on our side\. .*Reference: [\w-]+/);
      expect(res.body).not.toContain('could not be read');
    } finally {
      await t.app.db.query('alter table uploads drop constraint refuse_all');
    }
    expect(await countOf(f)).toBe(0);
  });

  it('answers "Form not found" when the form is deleted while its file arrives, keeping nothing', async () => {
    const f = await makeForm('Deleted midway');
    const token = tokenIn((await page(f)).body);
    const big = { filename: 'passport.pdf', content: Buffer.concat([PDF, Buffer.alloc(16 * 1024, 0x20)]) };
    const parts = fullAnswers(f, token).map((p): Part => (p[0] === idOf(f, 'ID proof') ? [p[0], big] : p));
    const whole = multipartOf(parts);
    const body = new PassThrough();
    const answer = t.app.inject({
      method: 'POST',
      url: `/customer/${f._id}/${owner.id}`,
      headers: whole.headers,
      payload: body,
    });
    const midFile = whole.payload.indexOf('%PDF') + 1024;
    body.write(whole.payload.subarray(0, midFile));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/deleteForm/${f._id}`,
      headers: auth(),
    });
    expect(deleted.statusCode).toBe(200);
    body.end(whole.payload.subarray(midFile));
    const res = await answer;
    expect(res.statusCode, res.body).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('Form not found');
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('answers a closed form with its closed message', async () => {
    const f = await makeForm('Closed now');
    const token = tokenIn((await page(f)).body);
    await t.app.inject({
      method: 'PUT',
      url: `/api/updateFormEntry/${f._id}`,
      headers: auth(),
      payload: { acceptingResponses: false },
    });
    const res = await post(fullAnswers(f, token), f);
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('This form is closed');
    expect(await countOf(f)).toBe(0);
  });

  it("shows the owner's thank-you message and a link to their address", async () => {
    const f = await makeForm('With redirect');
    await t.app.inject({
      method: 'PUT',
      url: `/api/formSettings/${f._id}`,
      headers: auth(),
      payload: {
        ...NO_SETTINGS,
        thankYouMessage: 'See you <soon>',
        redirectUrl: 'https://example.com/next?a=1&b=2',
      },
    });
    const res = await post(fullAnswers(f, tokenIn((await page(f)).body)), f);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('See you &lt;soon&gt;');
    expect(res.body).toContain('href="https://example.com/next?a=1&amp;b=2"');
  });
});
