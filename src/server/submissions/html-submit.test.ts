// The form without JavaScript (issue 13 item 1, docs/decisions/024): the page drawn whole on the server, and its
// multipart POST through the same submitter as the JSON API.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SETTINGS } from '#common/form-settings.ts';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { cspHashOf } from '../crypto.ts';
import { createTestApp, FUZZ_SETTINGS, signUpOwner, type TestApp } from '../test-app.ts';
import { PDF, PNG } from '../test-files.ts';

const CUSTOMER_HTML =
  '<!doctype html><html lang="en"><head><title>Easy Form</title><script type="module" crossorigin src="/assets/customer-1.js"></script>' +
  '<link rel="modulepreload" crossorigin href="/assets/react-1.js"></head><body><div id="root"></div></body></html>';

let t: TestApp;
let webDir: string;
let owner: { token: string; id: string };
let form: Form;

const auth = () => ({ authorization: `Bearer ${owner.token}` });
const idOf = (f: Form, name: string) => fieldsOf(f).find((x) => x.name === name)?._id ?? '';

async function makeForm(title = 'Hotel booking', questions?: object[]): Promise<Form> {
  let f = (
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/length',
      headers: auth(),
      payload: { formTitle: title, description: 'Tell us about your stay' },
    })
  ).json<Form>();
  for (const field of questions ?? [
    { id: 1, name: 'Name', type: 'text', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
    { id: 1, name: 'Phone', type: 'tel' },
    { id: 1, name: 'Arrival', type: 'date' },
    { id: 1, name: 'Secret word', type: 'password' },
    { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }], required: true },
    { id: 3, name: 'Meal', options: [{ value: 'Veg' }, { value: 'Non-veg' }], required: true },
    { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }] },
    { id: 5, name: 'ID proof', required: true },
  ]) {
    f = (
      await t.app.inject({ method: 'POST', url: `/api/text/${f._id}`, headers: auth(), payload: field })
    ).json<Form>();
  }
  return f;
}

type Part = [name: string, value: string] | [name: string, file: { filename: string; content: Buffer }];

/** A multipart/form-data body as a browser sends a form: fields and files in page order. */
function multipartOf(parts: Part[]) {
  const boundary = `----easyform${randomBytes(8).toString('hex')}`;
  const chunks = parts.map(([name, value]) =>
    typeof value === 'string'
      ? Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      : Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.filename}"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
          ),
          value.content,
          Buffer.from('\r\n'),
        ]),
  );
  return {
    payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const page = (f: Form = form) => t.app.inject({ method: 'GET', url: `/customer/${f._id}/${owner.id}` });
const tokenIn = (html: string) => /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '';
const post = (parts: Part[], f: Form = form) =>
  t.app.inject({ method: 'POST', url: `/customer/${f._id}/${owner.id}`, ...multipartOf(parts) });

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

/** Uploads for the form that no submission claimed: a refused or repeated post leaves none behind. */
const unclaimedOf = async (f: Form) =>
  (
    await t.app.db.query<{ n: number }>(
      'select count(*)::int as n from uploads where form_id = $1 and claimed_at is null',
      [f._id],
    )
  )[0]?.n;
const countOf = async (f: Form) =>
  (await t.app.inject({ method: 'GET', url: '/api/formSummary', headers: auth() }))
    .json<{ _id: string; count: number }[]>()
    .find((x) => x._id === f._id)?.count ?? 0;

beforeAll(async () => {
  webDir = await mkdtemp(join(tmpdir(), 'easyform-web-'));
  await mkdir(join(webDir, 'assets'));
  await writeFile(join(webDir, 'index.html'), '<!doctype html><title>Easy Form</title><div id="root"></div>');
  await writeFile(join(webDir, 'customer.html'), CUSTOMER_HTML);
  t = await createTestApp({ webDir });
  owner = await signUpOwner(t);
  form = await makeForm();
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(webDir, { recursive: true, force: true });
});

describe('GET /customer/{fid}/{id} without JavaScript', () => {
  it('draws the whole form: every question with its label, required marks, file inputs and a Submit button', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<form class="fill-form" method="post" enctype="multipart/form-data" novalidate');
    expect(html).toContain(`action="/customer/${form._id}/${owner.id}"`);
    expect(html).toContain('<h1>Hotel booking</h1>');
    expect(html).toContain('Tell us about your stay');
    for (const f of fieldsOf(form)) expect(html).toContain(`>${f.name}`);
    expect(html).toMatch(
      new RegExp(`<input id="q-${idOf(form, 'Name')}"[^>]*aria-required="true"[^>]*type="text"`),
    );
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Email')}"[^>]*type="email"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Phone')}"[^>]*type="tel"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Arrival')}"[^>]*type="date"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Secret word')}"[^>]*type="password"`));
    expect(html).toContain('Never enter a password you use elsewhere. Easy Form will never ask');
    expect(html).toContain(
      '<option value="">Select an Option</option><option value="Single">Single</option>',
    );
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('type="checkbox" name="' + idOf(form, 'Extras') + '" value="Wifi"');
    expect(html).toContain('type="file" accept=".jpg,.jpeg,.png,.pdf" aria-required="true"');
    expect(html).toContain('name="website"');
    expect(html).toContain(
      '<button type="submit" class="button button-primary fill-primary">Submit</button>',
    );
    expect(tokenIn(html)).toMatch(/^[\w-]{36}$/);
    // The script still takes over, with the form in the page: started once the server's form has painted, by an
    // inline script the page's policy allows by its hash (and no other).
    expect(html).toContain('id="fill-form"');
    const start = /<script type="module">([^<]*import\("\/assets\/customer-1\.js"\)[^<]*)<\/script>/.exec(
      html,
    )?.[1];
    expect(start).toMatch(/^addEventListener\("load"/);
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' ${cspHashOf(start ?? '')};`);
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(tokenIn((await page()).body)).not.toBe(tokenIn(html));
    const odd = await t.app.inject({ method: 'GET', url: `/CUSTOMER/${form._id}/${owner.id}/` });
    expect(odd.body).toContain(`action="/customer/${form._id}/${owner.id}"`);
  });

  it('escapes hostile titles, descriptions, questions and options, and never fails', async () => {
    const hostile = fc.stringMatching(/^[^\n]{1,30}$/).map((s) => s.trim() || 'x');
    const samples = fc.sample(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('</script><img src=x onerror=alert(1)>', '$& $1 $$', 'a"b\'c<d>e&f'),
          hostile,
        ),
        fc.oneof(fc.constantFrom('<img onerror=alert(1) src=x>', '$&'), hostile),
      ),
      { numRuns: Number(FUZZ_SETTINGS.runs ?? 8), seed: 13 },
    );
    for (const [title, option] of samples) {
      const f = await makeForm(title, [
        { id: 1, name: `${option} question`, type: 'text', required: true },
        { id: 2, name: option, options: [{ value: option }] },
      ]);
      const res = await page(f);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toMatch(/<img|<\/script><img/);
      const body = res.body.slice(res.body.indexOf('<div id="root">'));
      expect(body).toContain(
        `<h1>${title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</h1>`,
      );
    }
    // NUL and lone surrogates never reach a form: the API refuses them.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/length',
      headers: auth(),
      payload: { formTitle: 'a\u0000b\ud800' },
    });
    expect(res.statusCode).toBe(400);
  });

  it('draws a closed form as its closed message, and a link to no form as a 404 page', async () => {
    const f = await makeForm('Closing soon', [{ id: 1, name: 'Name', type: 'text' }]);
    await t.app.inject({
      method: 'PUT',
      url: `/api/formSettings/${f._id}`,
      headers: auth(),
      payload: { ...NO_SETTINGS, closedMessage: 'Bookings <b>closed</b> for the season' },
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/updateFormEntry/${f._id}`,
      headers: auth(),
      payload: { acceptingResponses: false },
    });
    const closed = await page(f);
    expect(closed.body).toContain('This form is closed');
    expect(closed.body).toContain('Bookings &lt;b&gt;closed&lt;/b&gt; for the season');
    const missing = await t.app.inject({ method: 'GET', url: `/customer/${randomUUIDLike()}/${owner.id}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('This form is no longer available');
  });

  it('answers /robots.txt as text, keeping crawlers off the API and file links', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toBe('User-agent: *\nDisallow: /api/\nDisallow: /files/\n');
  });
});

const randomUUIDLike = () => '7d9c2f4e-0b1a-4c3d-8e5f-6a7b8c9d0e1f';

describe('POST /customer/{fid}/{id}', () => {
  it('stores the answers and the file, which the owner then sees, and thanks the customer', async () => {
    const f = await makeForm('Stored booking');
    const res = await post(fullAnswers(f, tokenIn((await page(f)).body)), f);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Submitted successfully');
    expect(res.body).toContain('Your response to <strong>Stored booking</strong> was sent.');
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
    expect(html).toContain(`<a href="#q-${nameId}">Name: This question is required</a>`);
    expect(html).toMatch(
      new RegExp(`id="q-${nameId}"[^>]*aria-invalid="true" aria-describedby="q-${nameId}-error"`),
    );
    expect(html).toContain(`id="q-${nameId}-error"`);
    expect(html).toContain('value="priya@example.com"');
    expect(html).toContain('<option value="Double" selected>');
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

  it('drops a submission whose honeypot is filled, thanking it all the same', async () => {
    const f = await makeForm('Bots');
    const parts = fullAnswers(f, tokenIn((await page(f)).body)).map(([n, v]): Part =>
      n === 'website' ? [n, 'http://spam.example'] : ([n, v] as Part),
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
          post(
            answers.map(([n, v]): Part =>
              n === idOf(f, 'ID proof') ? [n, { filename: 'virus.exe', content: PNG }] : ([n, v] as Part),
            ),
            f,
          ),
      },
      {
        name: 'a PNG named .pdf',
        send: () =>
          post(
            answers.map(([n, v]): Part =>
              n === idOf(f, 'ID proof') ? [n, { filename: 'id.pdf', content: PNG }] : ([n, v] as Part),
            ),
            f,
          ),
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
