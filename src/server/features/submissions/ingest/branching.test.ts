// The server judges a submit against the form's pages and conditions (docs/decisions/042-pages-and-conditions.md):
// required only where a question applies, no answer where it does not, the path stored; a submit from an older
// version of the form is judged leniently and what the form no longer asks is kept aside.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission } from '#common/submissions.ts';
import { bookingForm as bookingFormOf } from '../../../testing/booking-items.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { setUpTestApp } from '../../../testing/test-app.ts';
import { NOT_APPLYING } from './answers.ts';

const t = setUpTestApp();
const as = ownerRequests(t);
const bookingForm = () => bookingFormOf(t);

type Texts = Record<string, string>;
const submit = (form: Form, texts: Texts, radio: Texts, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, textObject: texts, selectedRadio: radio, ...extra },
  });

const stored = async (formId: string) =>
  t.app.db.query<{ id: string; path: string[] | null }>(
    'select id, path from submissions where form_id = $1 order by created_at',
    [formId],
  );

describe('a submit judged against the pages its answers take', () => {
  it('takes a path that skips a page without its required question, and stores the path', async () => {
    const { owner, form, id, pages } = await bookingForm();
    const res = await submit(form, { [id('Your name')]: 'Asha' }, { [id('Do you need a room?')]: 'No' });
    expect(res.statusCode, res.body).toBe(200);
    const view = (await as(owner).get(`/api/forms/${res.json<{ _id: string }>()._id}`)).json<Submission>();
    expect(view.answers.map((a) => a.name)).toEqual(['Your name', 'Do you need a room?']);
    expect(view).not.toHaveProperty('keptAside');
    expect(await stored(form._id)).toEqual([{ id: view._id, path: ['start', pages[1]] }]);
    // The owner's view says which pages the response went through.
    expect(view.path).toEqual(['start', pages[1]]);

    const staying = await submit(
      form,
      { [id('Your name')]: 'Ravi', [id('How many nights?')]: '2', [id('Any diet?')]: 'Vegan' },
      { [id('Do you need a room?')]: 'Yes' },
    );
    expect(staying.statusCode, staying.body).toBe(200);
    expect((await stored(form._id))[1]?.path).toEqual(['start', ...pages]);
  });

  it('requires a question where it applies, naming it, and stores nothing', async () => {
    const { form, id } = await bookingForm();
    const res = await submit(form, { [id('Your name')]: 'Ravi' }, { [id('Do you need a room?')]: 'Yes' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { message: 'How many nights?: This question is required' } });
    const diet = await submit(
      form,
      { [id('Your name')]: 'Ravi', [id('How many nights?')]: '2' },
      { [id('Do you need a room?')]: 'Yes' },
    );
    expect(diet.json()).toMatchObject({ error: { message: 'Any diet?: This question is required' } });
    expect(await stored(form._id)).toEqual([]);
  });

  it('refuses an answer to a question that does not apply, naming it, and stores nothing', async () => {
    const { form, id } = await bookingForm();
    const res = await submit(
      form,
      { [id('Your name')]: 'Asha', [id('How many nights?')]: '3' },
      { [id('Do you need a room?')]: 'No' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { message: `How many nights?: ${NOT_APPLYING}` } });
    // The current version, sent by the page, is judged as strictly as no version at all.
    const current = await submit(
      form,
      { [id('Your name')]: 'Asha', [id('How many nights?')]: '3' },
      { [id('Do you need a room?')]: 'No' },
      { version: form.version },
    );
    expect(current.statusCode).toBe(400);
    expect(await stored(form._id)).toEqual([]);
  });
});

describe('a submit from an older version of the form', () => {
  it('is accepted with a required answer missing, and keeps aside what the form no longer asks', async () => {
    const { owner, form, id } = await bookingForm();
    // The owner drops the diet question while a customer's page is open on the version before.
    const diet = id('Any diet?');
    const edited = await as(owner).put(`/api/v1/form/${form._id}/items`, {
      items: form.items.filter((i) => i._id !== diet),
      version: form.version,
    });
    expect(edited.statusCode).toBe(200);
    const res = await submit(
      form,
      { [id('Your name')]: 'Asha', [id('How many nights?')]: '3', [diet]: 'Vegan' },
      { [id('Do you need a room?')]: 'No' },
      { version: form.version },
    );
    expect(res.statusCode, res.body).toBe(200);
    const view = (await as(owner).get(`/api/forms/${res.json<{ _id: string }>()._id}`)).json<Submission>();
    expect(view.answers.map((a) => a.name)).toEqual(['Your name', 'Do you need a room?']);
    expect(view.keptAside).toEqual([
      { fieldId: diet, name: diet, value: 'Vegan' },
      { fieldId: id('How many nights?'), name: 'How many nights?', value: '3' },
    ]);

    const missing = await submit(
      form,
      { [id('Your name')]: 'Ravi' },
      { [id('Do you need a room?')]: 'Yes' },
      { version: form.version },
    );
    expect(missing.statusCode, missing.body).toBe(200);
    // Still checked for what it does answer.
    const wrong = await submit(
      form,
      { [id('Your name')]: 'Ravi' },
      { [id('Do you need a room?')]: 'Perhaps' },
      { version: form.version },
    );
    expect(wrong.statusCode).toBe(400);
  });

  it('keeps aside any list sent under a name the form no longer has as text, a file by its name', async () => {
    const { owner, form, id } = await bookingForm();
    const res = await submit(
      form,
      { [id('Your name')]: 'Asha' },
      { [id('Do you need a room?')]: 'No' },
      {
        version: form.version - 1,
        gridObject: { Gone: [null, 1, 'x'] },
        fileObject: { Scans: [{ deleteId: 'a'.repeat(43), originalName: 'scan.pdf' }] },
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const view = (await as(owner).get(`/api/forms/${res.json<{ _id: string }>()._id}`)).json<Submission>();
    expect(view.keptAside).toEqual(
      expect.arrayContaining([
        { fieldId: 'Gone', name: 'Gone', value: ['null', '1', 'x'] },
        { fieldId: 'Scans', name: 'Scans', value: ['scan.pdf'] },
      ]),
    );
  });
});
