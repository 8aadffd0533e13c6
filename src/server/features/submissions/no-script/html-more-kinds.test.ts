// The kinds beyond the product's five without JavaScript (issue 39): drawn by the server as the React page draws
// them (a number box with its unit and bounds, ratings and scales as radio groups, one consent box, a statement's
// paragraphs, bold and links as text), posted as a browser posts them, stored, and refused at their question.
import { describe, expect, it } from 'vitest';

import { MORE_KIND_QUESTIONS } from '../../../testing/more-kind-questions.ts';
import { PNG } from '../../../testing/test-files.ts';
import {
  actionOf,
  hiddenOf,
  idOf,
  newestView,
  owner,
  setUpHtmlForm,
  tokenIn,
  type Part,
} from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, post, postOnly } = setUpHtmlForm();
const kindsForm = () => makeForm('Stay', MORE_KIND_QUESTIONS);

describe('the kinds beyond the first five without JavaScript', () => {
  it('are drawn as the React page draws them, the owner’s words as text', async () => {
    const form = await kindsForm();
    const html = (await page(form)).body;
    const id = (name: string) => idOf(form, name);
    // A number: the phone's number pad, its unit and its bounds said, all named by the box.
    expect(html).toMatch(
      new RegExp(
        `<input[^>]*id="q-${id('Guests')}"[^>]*inputmode="numeric"[^>]*aria-required="true"[^>]*aria-describedby="q-${id('Guests')}-unit q-${id('Guests')}-hint"`,
      ),
    );
    expect(html).toContain('>people</span>');
    expect(html).toContain('A whole number, from 1 to 12');
    // A star rating: one radio group, five radios, each named for a screen reader.
    const stay = id('Your stay');
    expect(html).toContain(`role="radiogroup" aria-labelledby="q-${stay}-legend"`);
    expect(html.match(new RegExp(`type="radio" name="${stay}"`, 'g'))).toHaveLength(5);
    expect(html).toContain('<span class="visually-hidden">3 of 5</span>');
    // A scale from 0 to 10 with its end labels describing the group.
    const likely = id('How likely are you to recommend us?');
    expect(html.match(new RegExp(`type="radio" name="${likely}" value="(\\d+)"`, 'g'))).toHaveLength(11);
    expect(html).toContain(`aria-describedby="q-${likely}-ends"`);
    // A statement: bold and a link, as markup we write; a consent: one box, required for assistive technology.
    expect(html).toContain('Read <strong>this</strong> first: <a href="https://example.org/t"');
    expect(html).toMatch(
      new RegExp(`type="checkbox" name="${id('Terms')}" value="yes"[^>]*aria-required="true"`),
    );
    expect(html).toMatch(new RegExp(`id="q-${id('Arrival time')}"[^>]*type="time"`));
    expect(html).toMatch(new RegExp(`id="q-${id('Your website')}"[^>]*type="url"`));
    expect(html).not.toContain(`name="${id('Before you answer')}"`);
  });

  it('draw a date question’s range as the picker’s bounds, said under it', async () => {
    const form = await makeForm('Dates', [{ id: 1, name: 'Arrival', type: 'date', required: true }]);
    const id = idOf(form, 'Arrival');
    const range = { earliest: '2026-12-01', latest: '2026-12-31' };
    await as(owner).put(`/api/updateText/${form._id}/${id}`, { name: 'Arrival', dateRange: range });
    const html = (await page(form)).body;
    expect(html).toMatch(
      new RegExp(
        `id="q-${id}"[^>]*aria-describedby="q-${id}-hint"[^>]*type="date"[^>]*min="2026-12-01" max="2026-12-31"`,
      ),
    );
    expect(html).toContain(`<p class="field-hint" id="q-${id}-hint">A day from 2026-12-01 to 2026-12-31</p>`);
  });

  it('draw a file question’s own rules as the picker’s types and the hint under it', async () => {
    const form = await makeForm('Papers', [{ id: 5, name: 'ID proof', required: true }]);
    const id = idOf(form, 'ID proof');
    const rules = { types: ['pdf'], maxBytes: 2_000_000 };
    await as(owner).put(`/api/updateFile/${form._id}/${id}`, { name: 'ID proof', fileRules: rules });
    // The file question is on the second step, after the answers.
    const first = (await page(form)).body;
    const step = await follow(
      await postOnly(
        [
          ['token', tokenIn(first)],
          ['website', ''],
        ],
        form,
        actionOf(first),
      ),
    );
    const html = step.body;
    expect(html).toContain(`<p class="field-hint" id="q-${id}-hint">PDF, up to 2 MB</p>`);
    expect(html).toMatch(new RegExp(`id="q-${id}"[^>]*type="file" accept="\\.pdf"`));
    // A picture sent all the same (a browser lets anything through): the step comes back saying why, nothing stored.
    const sent = await follow(
      await postOnly(
        [...hiddenOf(html), [id, { filename: 'photo.png', content: PNG }], ['website', '']],
        form,
        actionOf(html),
      ),
    );
    expect(sent.body).toContain('Choose a PDF');
    expect(await countOf(form)).toBe(0);
  });

  it('never turn an owner’s markup into HTML', async () => {
    const form = await makeForm('Marked', [
      {
        id: 9,
        name: '<b>Note</b>',
        settings: { text: '**<img src=x onerror=alert(1)>** [a](javascript:alert(1))' },
      },
    ]);
    const html = (await page(form)).body;
    expect(html).toContain('&lt;b&gt;Note&lt;/b&gt;');
    expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(html).not.toContain('href="javascript:');
  });

  it('are posted, stored as text, and refused at their question with the answers kept', async () => {
    const form = await kindsForm();
    const id = (name: string) => idOf(form, name);
    const answers = (token: string, guests: string): Part[] => [
      ['token', token],
      [id('Guests'), guests],
      [id('Your stay'), '5'],
      [id('How likely are you to recommend us?'), '0'],
      [id('Terms'), 'yes'],
      [id('Arrival time'), '09:15'],
      [id('Your website'), ''],
      ['website', ''],
    ];
    const refused = await post(answers(tokenIn((await page(form)).body), '40'), form);
    // The page comes back (a 303 to it, then 200) with the message at the question, and nothing is stored.
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('Enter 12 or less');
    expect(await countOf(form)).toBe(0);
    expect(refused.body).toMatch(new RegExp(`id="q-${id('Guests')}"[^>]*value="40"`));
    expect(refused.body).toMatch(new RegExp(`name="${id('Your stay')}" value="5" checked`));

    const sent = await post(answers(tokenIn(refused.body), '2'), form);
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(200);
    expect(await countOf(form)).toBe(1);
    const view = await newestView(form);
    expect(view.answers.map((a) => [a.name, a.value])).toEqual([
      ['Guests', '2'],
      ['Your stay', '5'],
      ['How likely are you to recommend us?', '0'],
      ['Terms', 'yes'],
      ['Arrival time', '09:15'],
    ]);
  });
});
