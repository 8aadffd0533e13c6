// The form without JavaScript (issue 13 item 1, docs/decisions/024): the page drawn whole on the server. Its
// multipart POST: html-submit.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backgroundOf } from '#common/form-colors.ts';
import { NO_SETTINGS } from '#common/form-settings.ts';
import { fieldsOf } from '#common/forms.ts';
import { cspHashOf } from '../../../http/crypto.ts';
import { FUZZ_SETTINGS } from '../../../testing/test-app.ts';
import { form, idOf, owner, randomUUIDLike, setUpHtmlForm, t, tokenIn } from './test-fixture.ts';

const { as, makeForm, page } = setUpHtmlForm();

describe('GET /customer/{fid}/{id} without JavaScript', () => {
  it('draws the first step of a form with files as the script does: every other question with its label and required marks, and Next', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<form class="fill-form" method="post" enctype="multipart/form-data" novalidate');
    expect(html).toContain(`action="/customer/${form._id}/${owner.id}?go=files"`);
    expect(html).toContain('<h1 dir="auto">Hotel booking</h1>');
    expect(html).toContain('Tell us about your stay');
    expect(html).toContain('<p class="fill-step">Step 1 of 2 · Your answers</p>');
    for (const f of fieldsOf(form).filter((x) => x.name !== 'ID proof')) expect(html).toContain(`>${f.name}`);
    expect(html).toMatch(
      new RegExp(`<input id="q-${idOf(form, 'Name')}"[^>]*aria-required="true"[^>]*type="text"`),
    );
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Email')}"[^>]*type="email"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Phone')}"[^>]*type="tel"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Arrival')}"[^>]*type="date"`));
    expect(html).toMatch(new RegExp(`id="q-${idOf(form, 'Secret word')}"[^>]*type="password"`));
    expect(html).toContain('Never enter a password you use elsewhere. Easy Form will never ask');
    expect(html).toContain(
      '<option value="">Select an Option</option><option value="Single" dir="auto">Single</option>',
    );
    expect(html).toContain('role="radiogroup"');
    expect(html).toContain('type="checkbox" name="' + idOf(form, 'Extras') + '" value="Wifi"');
    // The file question is the next step's, as with the script (html-steps.test.ts).
    expect(html).not.toContain('type="file"');
    expect(html).not.toContain('>ID proof');
    expect(html).toContain('name="website"');
    expect(html).toContain(
      '<div class="fill-bar-actions"><button type="submit" class="button button-primary fill-primary">Next</button></div>',
    );
    expect(tokenIn(html)).toMatch(/^[\w-]{36}$/);
    // The script still takes over, with the form in the page: started once the server's form has painted, by an
    // inline script the page's policy allows by its hash (and no other).
    expect(html).toContain('id="fill-form"');
    const start = /<script type="module">([^<]*import\("\/assets\/customer-1\.js"\)[^<]*)<\/script>/.exec(
      html,
    )?.[1];
    expect(start).toContain('addEventListener("load"');
    expect(start).toContain('"first-contentful-paint"');
    expect(res.headers['content-security-policy']).toContain(`script-src 'self' ${cspHashOf(start ?? '')};`);
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(tokenIn((await page()).body)).not.toBe(tokenIn(html));
    const odd = await t.app.inject({ method: 'GET', url: `/CUSTOMER/${form._id}/${owner.id}/` });
    expect(odd.body).toContain(`action="/customer/${form._id}/${owner.id}?go=files"`);
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
        `<h1 dir="auto">${title.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')}</h1>`,
      );
    }
    // NUL and lone surrogates never reach a form: the API refuses them.
    const res = await as(owner).post('/api/v1/length', { formTitle: 'a\u0000b\ud800' });
    expect(res.statusCode).toBe(400);
  });

  it("links the web addresses in the form's description, and only http(s) ones", async () => {
    const f = await makeForm('Open day', [{ id: 1, name: 'Name', type: 'text' }]);
    const description = 'Map: https://example.org/map?a=1&b=2. Not javascript:alert(1) nor <b>bold</b>';
    const put = await as(owner).put(`/api/updateFormEntry/${f._id}`, { description });
    expect(put.statusCode).toBe(200);
    const html = (await page(f)).body;
    expect(html).toContain(
      '<p class="fill-description" dir="auto">Map: <a href="https://example.org/map?a=1&amp;b=2" ' +
        'rel="noopener noreferrer nofollow ugc" target="_blank">https://example.org/map?a=1&amp;b=2' +
        '<span class="visually-hidden"> (opens in a new tab)</span></a>. Not javascript:alert(1) nor ' +
        '&lt;b&gt;bold&lt;/b&gt;</p>',
    );
  });

  it('lets every text the owner wrote, and every answer box, take its own direction (dir="auto"): an Arabic form reads right to left', async () => {
    const f = await makeForm('استمارة التسجيل', [
      { id: 1, name: 'الاسم الكامل', type: 'text', required: true },
      { id: 1, name: 'البريد الإلكتروني', type: 'email' },
      { id: 1, name: 'نبذة عنك', type: 'textarea' },
      { id: 2, name: 'المدينة', options: [{ value: 'الرياض' }, { value: 'القاهرة' }] },
      { id: 3, name: 'هل ستحضر؟', options: [{ value: 'نعم' }, { value: 'لا' }], required: true },
      { id: 4, name: 'الاهتمامات', options: [{ value: 'التصميم' }, { value: 'البرمجة' }] },
      { id: 5, name: 'صورة الهوية' },
    ]);
    const html = (await page(f)).body;
    const body = html.slice(html.indexOf('<div id="root">'));
    expect(body).toContain('<h1 dir="auto">استمارة التسجيل</h1>');
    expect(body).toContain('<p class="fill-description" dir="auto">Tell us about your stay</p>');
    // Every question's label or legend (6 on the first step; the file is the second's), every option row (4),
    // every dropdown option (2).
    expect(body.match(/<(label|legend) class="fill-question"[^>]*>/g)).toHaveLength(6);
    for (const tag of body.match(/<(label|legend) class="fill-question"[^>]*>/g) ?? [])
      expect(tag).toContain('dir="auto"');
    expect(body).toContain('dir="auto">هل ستحضر؟<span class="fill-required">');
    expect(body.match(/<label class="fill-option" dir="auto"><input/g)).toHaveLength(4);
    expect(body).toContain('<option value="الرياض" dir="auto">الرياض</option>');
    // Typed Arabic aligns right in its box; our own words (hints, Submit) keep the page's direction.
    expect(body).toMatch(
      new RegExp(`<input id="q-${idOf(f, 'الاسم الكامل')}"[^>]*dir="auto"[^>]*type="text"`),
    );
    expect(body).toMatch(new RegExp(`<input id="q-${idOf(f, 'البريد الإلكتروني')}"[^>]*dir="auto"`));
    expect(body).toMatch(new RegExp(`<textarea id="q-${idOf(f, 'نبذة عنك')}"[^>]*dir="auto"`));
    expect(body).toContain('<p class="fill-group-hint">Choose all that apply</p>');
  });

  it('draws a closed form as its closed message under its title on its colours, and a link to no form as a 404 page', async () => {
    const f = await makeForm('Closing soon', [{ id: 1, name: 'Name', type: 'text' }]);
    await as(owner).put(`/api/formSettings/${f._id}`, {
      ...NO_SETTINGS,
      closedMessage: 'Bookings <b>closed</b> for the season',
    });
    await as(owner).put(`/api/updateFormEntry/${f._id}`, { acceptingResponses: false });
    const closed = await page(f);
    expect(closed.body).toContain('This form is closed');
    // Which form it is: its title as the page's heading, on its own colours, and none of its questions.
    expect(closed.body).toContain('<h1 dir="auto">Closing soon</h1>');
    expect(closed.body).toContain(`--fill-bg:${backgroundOf(f)}`);
    expect(closed.body).toContain('<title>Closed: Closing soon · Easy Form</title>');
    expect(closed.body).not.toContain('<form');
    expect(closed.body).toContain(
      '<p class="fill-owner-message" dir="auto">Bookings &lt;b&gt;closed&lt;/b&gt; for the season</p>',
    );
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
