// The choice grid (issue 39): its settings checked when it is added or changed, its answer (the chosen column by
// row, in `gridObject`) accepted or refused on the server whatever the page allowed, generated around its rows and
// columns; stored as an object, shown to the owner, in the CSV and in webhooks, kept by export and import, and counted by
// Results row by row as a rebuild from the stored rows counts it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { FormResults, GridResult } from '#common/results.ts';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { findSubmissionsAsPayload } from '../responses/for-webhook.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

const ROWS = ['Speed', 'Price', 'Friendliness'];
const COLUMNS = ['Poor', 'Fair', 'Good'];

async function setUp(required = true) {
  const owner = await signUpOwner(t);
  const made = await createForm(t, owner.token);
  const res = await as(owner).post(`/api/text/${made._id}`, {
    id: 13,
    name: 'Rate our service',
    required,
    settings: { rows: ROWS, columns: COLUMNS },
  });
  expect(res.statusCode, res.body).toBe(200);
  const form = res.json<Form>();
  const grid = form.moreField.find((f) => f.kind === 'grid');
  if (!grid) throw new Error('no grid');
  const submit = (answer: unknown, key = 'gridObject') =>
    t.app.inject({
      method: 'POST',
      url: `/api/forms/${form.ownerIdAsStructureId}`,
      payload: { formStructureId: form._id, [key]: { [grid._id]: answer } },
    });
  const stored = async () =>
    (
      await t.app.db.query<{ answers: { value: unknown }[] }>(
        'select answers from submissions where form_id = $1 order by created_at',
        [form._id],
      )
    ).map((r) => r.answers[0]?.value);
  return { owner, form, grid, submit, stored };
}

describe('a choice grid', () => {
  it('is added with its rows and columns, which are checked, and changed by the update call', async () => {
    const { owner, form, grid } = await setUp();
    expect(grid).toMatchObject({ kind: 'grid', settings: { rows: ROWS, columns: COLUMNS } });
    expect(form.fieldOrder.at(-1)).toEqual({ _id: grid._id, kind: 'grid' });
    const refusals: [object, string][] = [
      [{ rows: ROWS, columns: ['Only'] }, 'Add at least two columns'],
      [{ rows: [], columns: COLUMNS }, 'Add at least one row'],
      [{ rows: ['A', 'A'], columns: COLUMNS }, 'Each row appears once'],
      [{ rows: Array.from({ length: 21 }, (_, i) => `R${i}`), columns: COLUMNS }, 'at most 20 rows'],
      [{ rows: ROWS, columns: [' ', 'B'] }, 'A column cannot be empty'],
    ];
    for (const [settings, message] of refusals) {
      const res = await as(owner).put(`/api/updateQuestion/${form._id}/${grid._id}`, {
        name: grid.name,
        settings,
      });
      expect(res.statusCode, message).toBe(400);
      expect(res.body).toContain(message);
    }
    const changed = await as(owner).put(`/api/updateQuestion/${form._id}/${grid._id}`, {
      name: grid.name,
      settings: { rows: ['Speed', 'Price'], columns: ['Bad', 'Good'] },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Form>().moreField[0]).toMatchObject({
      settings: { rows: ['Speed', 'Price'], columns: ['Bad', 'Good'] },
    });
  });

  it('keeps the column chosen in each row, shown to the owner, in the CSV and through export and import', async () => {
    const { owner, form, submit, stored } = await setUp();
    const res = await submit({ Friendliness: 'Good', Speed: 'Fair', Price: 'Poor' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored()).toEqual([{ Speed: 'Fair', Price: 'Poor', Friendliness: 'Good' }]);
    const view = (await as(owner).get(`/api/forms/${res.json<{ _id: string }>()._id}`)).json<Submission>();
    expect(view.answers[0]).toMatchObject({
      kind: 'grid',
      value: { Speed: 'Fair', Price: 'Poor', Friendliness: 'Good' },
    });
    // In the grid's order of rows, whatever order the database keeps an object's keys in.
    expect(Object.keys(view.answers[0]?.value ?? {})).toEqual(ROWS);
    expect(view.gridObject).toEqual({
      'Rate our service': { Speed: 'Fair', Price: 'Poor', Friendliness: 'Good' },
    });
    // A webhook sends it as stored: the chosen column by row.
    const payload = await findSubmissionsAsPayload(
      t.app.db,
      [res.json<{ _id: string }>()._id],
      async () => new Map(),
    );
    expect([...payload.values()][0]?.answers[0]).toMatchObject({
      kind: 'grid',
      value: { Speed: 'Fair', Price: 'Poor', Friendliness: 'Good' },
      file: null,
    });
    const csv = (await as(owner).get(`/api/formSubmissions/${form._id}/csv`)).body;
    // The rows in the grid's order, whatever order the database keeps them in.
    expect(csv).toContain('Speed: Fair; Price: Poor; Friendliness: Good');
    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json<object>();
    const imported = await as(owner).post('/api/importForm', exported);
    expect(imported.statusCode, imported.body).toBe(201);
    expect(imported.json<Form>().moreField[0]).toMatchObject({
      kind: 'grid',
      settings: { rows: ROWS, columns: COLUMNS },
    });
  });

  it('refuses what its rows and columns do not allow, naming the question, and stores nothing', async () => {
    const { submit, stored } = await setUp();
    const refusals: [unknown, string, string?][] = [
      [{ Speed: 'Good', Price: 'Fair' }, 'Rate our service: Choose an answer for “Friendliness”'],
      [
        { Speed: 'Good', Price: 'Fair', Friendliness: 'Great' },
        'Choose one of the columns for “Friendliness”',
      ],
      [{ Speed: 'Good', Price: 'Fair', Friendliness: 'Good', Comfort: 'Good' }, '“Comfort” is not a row'],
      ['Good', 'Rate our service: Choose a column in each row'],
      ['Good', 'Rate our service:', 'textObject'],
      [{ Speed: 'Good', Price: 'Fair', Friendliness: 'x'.repeat(300) }, 'VALIDATION_FAILED'],
    ];
    for (const [answer, message, key] of refusals) {
      const res = await submit(answer, key);
      expect(res.statusCode, message).toBe(400);
      expect(res.body).toContain(message);
    }
    expect(await stored()).toEqual([]);
  });

  it('accepts exactly the answers its rows and columns allow (generated), stored without blanks', async () => {
    const { submit, stored } = await setUp(false);
    let kept = 0;
    const row = fc.constantFrom(...ROWS, 'Comfort', '');
    const column = fc.constantFrom(...COLUMNS, 'Great', '');
    await fc.assert(
      fc.asyncProperty(fc.dictionary(row, column, { maxKeys: 5 }), async (answer) => {
        const fits = Object.entries(answer).every(
          ([r, c]) => ROWS.includes(r) && (c === '' || COLUMNS.includes(c)),
        );
        const res = await submit(answer);
        expect(res.statusCode, JSON.stringify(answer)).toBe(fits ? 200 : 400);
        if (!fits) return;
        const given = Object.fromEntries(Object.entries(answer).filter(([, c]) => c !== ''));
        const all = await stored();
        // An optional grid left empty stores no answer to it.
        if (Object.keys(given).length > 0) {
          kept += 1;
          expect(all.at(-1)).toEqual(given);
        }
        expect(all.filter((v) => v !== undefined)).toHaveLength(kept);
      }),
      { numRuns: 40 },
    );
  });

  it('is counted by Results row by row, as a rebuild counts it, and uncounted when a response is deleted', async () => {
    const { owner, form, submit } = await setUp();
    const given = [
      { Speed: 'Good', Price: 'Fair', Friendliness: 'Good' },
      { Speed: 'Good', Price: 'Poor', Friendliness: 'Good' },
      { Speed: 'Fair', Price: 'Poor', Friendliness: 'Good' },
      { Speed: 'Poor', Price: 'Good', Friendliness: 'Fair' },
    ];
    const ids: string[] = [];
    for (const answer of given) ids.push((await submit(answer)).json<{ _id: string }>()._id);
    const read = async () =>
      (await as(owner).get(`/api/formResults/${form._id}`)).json<FormResults>().questions[0] as GridResult;
    const results = await read();
    expect(results.kind).toBe('grid');
    expect(results.answered).toBe(4);
    const counts = (r: GridResult) => r.rows.map((row) => [row.row, row.columns.map((c) => c.count)]);
    expect(counts(results)).toEqual([
      ['Speed', [1, 1, 2]],
      ['Price', [2, 1, 1]],
      ['Friendliness', [0, 1, 3]],
    ]);
    expect(results.rows[2]?.columns[2]).toMatchObject({ value: 'Good', percent: 75, offered: true });
    await t.app.db.query('select rebuild_form_results($1)', [form._id]);
    expect(await read()).toEqual(results);
    const deleted = await as(owner).post(`/api/formSubmissions/${form._id}/delete`, { ids: [ids[0]] });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(counts(await read())).toEqual([
      ['Speed', [1, 1, 1]],
      ['Price', [2, 0, 1]],
      ['Friendliness', [0, 1, 2]],
    ]);
  });

  it('is tested row by row by a condition (a row’s choice, named as a pair), held by the server', async () => {
    const { owner, form, grid } = await setUp(false);
    const choice = (row: string, column: string) => JSON.stringify([row, column]);
    const items = (condition: object) => [
      ...form.items,
      { kind: 'page', _id: 'sorry', title: 'We are sorry', condition },
      { kind: 'text', _id: 'what', name: 'What went wrong?', type: 'text', required: true },
    ];
    const save = (condition: object) =>
      as(owner).put(`/api/v1/form/${form._id}/items`, { items: items(condition), version: form.version });
    const refused = await save({ question: grid._id, op: 'includes', value: choice('Speed', 'Awful') });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('for “Speed: Awful”, which is not one of its choices');
    const saved = await save({
      any: [
        { question: grid._id, op: 'includes', value: choice('Speed', 'Poor') },
        { question: grid._id, op: 'includes', value: choice('Price', 'Poor') },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const paged = saved.json<Form>();
    const what = paged.textField[0]?._id ?? '';
    const send = (answer: object, texts: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/forms/${paged.ownerIdAsStructureId}`,
        payload: { formStructureId: paged._id, gridObject: { [grid._id]: answer }, textObject: texts },
      });
    // A poor row shows the page, whose question is then required; good rows skip it, and an answer there is refused.
    expect((await send({ Speed: 'Poor' })).body).toContain('What went wrong?: This question is required');
    expect((await send({ Speed: 'Good', Price: 'Poor' }, { [what]: 'Slow' })).statusCode).toBe(200);
    expect((await send({ Speed: 'Good', Price: 'Fair' })).statusCode).toBe(200);
    expect((await send({ Speed: 'Good' }, { [what]: 'Slow' })).body).toContain('does not apply');
  });
});
