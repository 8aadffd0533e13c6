// The choice grid without JavaScript (issue 39): drawn by the server as the React page draws it (one radio group a
// row, named for a screen reader by its row), posted as a browser posts it (`<question id>.<row number>`), stored as
// the chosen column by row, and refused at its question with every row's choice kept; a page of a paged form keeps
// its rows in the draft.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import {
  actionOf,
  hiddenOf,
  idOf,
  newestView,
  owner,
  queryOf,
  setUpHtmlForm,
  tokenIn,
  type Part,
} from './test-fixture.ts';

const { as, countOf, follow, makeForm, page, post, postOnly } = setUpHtmlForm();
const gridForm = (required = true) =>
  makeForm('Service', [
    { id: 1, name: 'Name', type: 'text' },
    {
      id: 13,
      name: 'Rate <our> service',
      required,
      settings: { rows: ['Speed', 'Price & value'], columns: ['Poor', 'Good', '"Great"'] },
    },
  ]);

const answers = (form: Form, token: string, speed: string, price: string): Part[] => {
  const id = idOf(form, 'Rate <our> service');
  return [
    ['token', token],
    [idOf(form, 'Name'), 'Asha'],
    ...(speed ? [[`${id}.0`, speed] as Part] : []),
    ...(price ? [[`${id}.1`, price] as Part] : []),
    ['website', ''],
  ];
};

describe('a choice grid without JavaScript', () => {
  it('is drawn as one radio group a row, the owner’s words as text', async () => {
    const form = await gridForm();
    const id = idOf(form, 'Rate <our> service');
    const html = (await page(form)).body;
    expect(html).toContain('Rate &lt;our&gt; service');
    expect(html).toContain(
      `<div class="fill-grid-row" role="radiogroup" aria-labelledby="q-${id}-row-1" aria-required="true"><p class="fill-grid-row-name" id="q-${id}-row-1" dir="auto">Price &amp; value</p>`,
    );
    expect(html.match(new RegExp(`type="radio" name="${id}\\.0"`, 'g'))).toHaveLength(3);
    expect(html).toContain(`name="${id}.1" value="&quot;Great&quot;"`);
    // The error summary's link reaches the grid's first choice.
    expect(html).toContain(`id="q-${id}-first" type="radio" name="${id}.0"`);
  });

  it('is posted row by row, stored as the chosen column by row, and refused at its question with the rows kept', async () => {
    const form = await gridForm();
    const id = idOf(form, 'Rate <our> service');
    const refused = await post(answers(form, tokenIn((await page(form)).body), 'Good', ''), form);
    expect(refused.statusCode).toBe(200);
    expect(refused.body).toContain('Choose an answer for “Price &amp; value”');
    expect(refused.body).toMatch(new RegExp(`name="${id}\\.0" value="Good" checked`));
    expect(await countOf(form)).toBe(0);

    const sent = await post(answers(form, tokenIn(refused.body), 'Good', '"Great"'), form);
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(200);
    expect(await countOf(form)).toBe(1);
    const view = await newestView(form);
    expect(view.answers.map((a) => [a.name, a.value])).toEqual([
      ['Name', 'Asha'],
      ['Rate <our> service', { Speed: 'Good', 'Price & value': '"Great"' }],
    ]);
  });

  it('refuses a column that is not the grid’s, and takes an optional grid left empty', async () => {
    const required = await gridForm();
    const refused = await post(
      answers(required, tokenIn((await page(required)).body), 'Good', 'Superb'),
      required,
    );
    expect(refused.body).toContain('Choose one of the columns for “Price &amp; value”');
    expect(await countOf(required)).toBe(0);

    const optional = await gridForm(false);
    const sent = await post(answers(optional, tokenIn((await page(optional)).body), '', ''), optional);
    expect(sent.statusCode).toBe(200);
    expect(await countOf(optional)).toBe(1);
  });

  it('on a page of a paged form: kept in the draft through Next and Back, deciding the next page, then stored', async () => {
    const made = await gridForm();
    const [name, grid] = made.items;
    const items = [
      grid,
      {
        kind: 'page',
        _id: 'more',
        title: 'Tell us more',
        condition: { question: grid?._id, op: 'answered' },
      },
      name,
    ];
    const res = await as(owner).put(`/api/v1/form/${made._id}/items`, { items, version: made.version });
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json<Form>();
    const id = idOf(form, 'Rate <our> service');
    const press = async (html: string, answers: Part[], query = actionOf(html)) =>
      (await follow(await postOnly([...hiddenOf(html), ...answers, ['website', '']], form, query))).body;
    const first = (await page(form)).body;
    const second = await press(first, [
      [`${id}.0`, 'Good'],
      [`${id}.1`, '"Great"'],
    ]);
    // The grid was answered, so the page that asks for it applies.
    expect(second).toContain('Tell us more');
    const back = await press(second, [], queryOf(/formaction="([^"]+)"/.exec(second)?.[1]));
    expect(back).toMatch(new RegExp(`name="${id}\\.1" value="&quot;Great&quot;" checked`));
    const again = await press(back, [
      [`${id}.0`, 'Poor'],
      [`${id}.1`, '"Great"'],
    ]);
    await press(again, [[idOf(form, 'Name'), 'Asha']]);
    expect(await countOf(form)).toBe(1);
    expect((await newestView(form)).answers.map((a) => [a.name, a.value])).toEqual([
      ['Rate <our> service', { Speed: 'Poor', 'Price & value': '"Great"' }],
      ['Name', 'Asha'],
    ]);
  });
});
