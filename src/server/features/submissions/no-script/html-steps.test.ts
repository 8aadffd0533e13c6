// A form with files without JavaScript comes in the same two steps as with the script (issue 37, the customer's
// item 1): its other questions and Next, then its files with Back and Submit. Each page here is posted as a browser
// posts it: every hidden field the page holds, and what the customer typed or chose.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { PDF } from '../../../testing/test-files.ts';
import { fullAnswers, idOf, owner, setUpHtmlForm, tokenIn, unescapeHtml, type Part } from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, post, postOnly, unclaimedOf } = setUpHtmlForm();

/** The hidden fields of a page, in page order, as a browser sends them. */
const hiddenOf = (html: string): Part[] =>
  [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(
    (m) => [m[1] ?? '', unescapeHtml(m[2] ?? '')] as Part,
  );

/** The first step's answers of the hotel form, as its Next posts them. */
const firstStep = (f: Form, token: string): Part[] =>
  fullAnswers(f, token).filter(([name]) => name !== idOf(f, 'ID proof'));

/** A post to the address a page's form or button names (`?go=files` for Next, `?go=answers` for Back). */
const postTo = async (query: string, parts: Part[], f: Form) => follow(await postOnly(parts, f, query));

/** The address the page's form posts to, and the one its Back button does. */
const actionOf = (html: string) =>
  /<form class="fill-form"[^>]* action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
const backOf = (html: string) => /formaction="([^"]+)"/.exec(html)?.[1];

const buttonsOf = (html: string) =>
  [
    ...(/<div class="fill-bar-actions">(.*?)<\/div>/.exec(html)?.[1] ?? '').matchAll(/>([^<]+)<\/button>/g),
  ].map((m) => m[1]);

describe('a form with files, posted without JavaScript', () => {
  it('checks the first step at Next and draws the files step, which carries the answers to one stored response', async () => {
    const f = await makeForm('Two steps');
    const first = (await page(f)).body;
    expect(buttonsOf(first)).toEqual(['Next']);
    expect(actionOf(first)).toBe(`/customer/${f._id}/${owner.id}?go=files`);
    const token = tokenIn(first);

    const files = await postTo('?go=files', [...firstStep(f, token), ['website', '']], f);
    expect(files.statusCode).toBe(200);
    const html = files.body;
    expect(html).toContain(
      '<header class="fill-heading fill-later"><p class="fill-step">Step 2 of 2 · Files</p>',
    );
    expect(html).toContain('<h1 dir="auto">Two steps</h1>');
    expect(html).not.toContain('Tell us about your stay');
    expect(html).toContain(`id="q-${idOf(f, 'ID proof')}"`);
    expect(html).toContain('type="file"');
    expect(html).not.toContain(`id="q-${idOf(f, 'Name')}"`);
    expect(buttonsOf(html)).toEqual(['Back', 'Submit']);
    expect(actionOf(html)).toBe(`/customer/${f._id}/${owner.id}`);
    expect(backOf(html)).toBe(`/customer/${f._id}/${owner.id}?go=answers`);
    expect(html).not.toContain('<script type="module"');
    expect(await countOf(f)).toBe(0);

    const sent = await post(
      [...hiddenOf(html), [idOf(f, 'ID proof'), { filename: 'passport.pdf', content: PDF }], ['website', '']],
      f,
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain('Submitted successfully');
    expect(await countOf(f)).toBe(1);
    expect(await unclaimedOf(f)).toBe(0);
    const list = await as(owner).get(`/api/formSubmissions/${f._id}`);
    const id = list.json<{ items: { _id: string }[] }>().items[0]?._id;
    const one = (await as(owner).get(`/api/forms/${id}`)).json<Submission>();
    expect(one.textObject).toMatchObject({ Name: 'Priya Sharma', Email: 'priya@example.com' });
    expect(one.selectedCheckboxes).toEqual([{ name: 'Extras', values: ['Wifi', 'Parking'] }]);
    expect(one.fileObject['ID proof']?.originalName).toBe('passport.pdf');
  });

  it('keeps the customer on the first step while one of its answers needs fixing, storing nothing', async () => {
    const f = await makeForm('First step refused');
    const token = tokenIn((await page(f)).body);
    const res = await postTo(
      '?go=files',
      firstStep(f, token).filter(([name]) => name !== idOf(f, 'Meal')),
      f,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<p class="fill-step">Step 1 of 2 · Your answers</p>');
    expect(res.body).toContain('One answer needs your attention');
    // The required file is the next step's business, not an error here.
    expect(res.body).not.toContain('ID proof');
    expect(res.body).toContain('value="priya@example.com"');
    expect(buttonsOf(res.body)).toEqual(['Next']);
    expect(await countOf(f)).toBe(0);
  });

  it('goes Back from the files step to the first with every answer kept, keeping no file that came with it', async () => {
    const f = await makeForm('Back again');
    const token = tokenIn((await page(f)).body);
    const files = (await postTo('?go=files', firstStep(f, token), f)).body;
    const back = await postTo(
      '?go=answers',
      [...hiddenOf(files), [idOf(f, 'ID proof'), { filename: 'passport.pdf', content: PDF }]],
      f,
    );
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain('<p class="fill-step">Step 1 of 2 · Your answers</p>');
    expect(back.body).toContain('value="priya@example.com"');
    expect(back.body).toContain('<option value="Double" dir="auto" selected>');
    expect(back.body).toMatch(/value="Parking" checked/);
    expect(tokenIn(back.body)).toBe(token);
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
  });

  it('sends the files step back with the message at the file and the answers still carried', async () => {
    const f = await makeForm('File refused');
    const token = tokenIn((await page(f)).body);
    const files = (await postTo('?go=files', firstStep(f, token), f)).body;
    const res = await post(
      [
        ...hiddenOf(files),
        [idOf(f, 'ID proof'), { filename: 'notes.txt', content: Buffer.from('plain text') }],
      ],
      f,
    );
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<p class="fill-step">Step 2 of 2 · Files</p>');
    expect(res.body).toContain('One file needs your attention.');
    expect(res.body).toContain(`id="q-${idOf(f, 'ID proof')}-error"`);
    expect(res.body).toContain('Choose the file again');
    expect(hiddenOf(res.body)).toContainEqual([idOf(f, 'Name'), 'Priya Sharma']);
    expect(await countOf(f)).toBe(0);
  });

  it('never stores a post that only moves between steps, even one with every answer and the file, and refuses an unknown move', async () => {
    const f = await makeForm('Only moves');
    const token = tokenIn((await page(f)).body);
    for (const query of ['?go=files', '?go=answers']) {
      const res = await postTo(query, fullAnswers(f, token), f);
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('Submitted successfully');
    }
    const odd = await postTo('?go=thanks', fullAnswers(f, token), f);
    expect(odd.statusCode).toBe(400);
    expect(odd.headers['content-type']).toMatch(/^text\/html/);
    expect(await countOf(f)).toBe(0);
    expect(await unclaimedOf(f)).toBe(0);
  });
});
