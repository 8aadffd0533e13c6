// The question kinds beyond the product's five (issue 39), on the owner's side: added by the add call's ids 6–12
// with their settings, changed by their own call (settings checked against the kind, nothing changed on a refusal),
// deleted, saved with the list of items, and carried through export and import.
import { describe, expect, it } from 'vitest';
import type { Form, PublicForm } from '#common/forms.ts';
import { moreKindsForm } from '../../testing/more-kinds-form.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

describe('the kinds beyond the first five', () => {
  it('are added by ids 6 to 13 with their settings, in order, and reach the customer’s copy', async () => {
    const { form, more } = await moreKindsForm(t);
    expect(form.fieldOrder.map((o) => o.kind)).toEqual([
      'number',
      'rating',
      'scale',
      'statement',
      'consent',
      'time',
      'url',
      'grid',
    ]);
    expect(more('Guests')).toMatchObject({
      kind: 'number',
      required: true,
      settings: { min: 1, max: 12, decimals: false, unit: 'people' },
    });
    expect(more('Your stay')).toMatchObject({ settings: { max: 5, style: 'stars' } });
    expect(more('Before you answer')).toMatchObject({ kind: 'statement', required: false });
    expect(more('Arrival time')).not.toHaveProperty('settings');
    // The product's own lists stay as they were: a client that knows only them sees no new shape there.
    expect(form.textField).toEqual([]);
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/publicForm/${form._id}` })
    ).json<PublicForm>();
    expect(shown.moreField).toEqual(form.moreField);
    expect(shown.items?.map((i) => i.kind)).toEqual(form.fieldOrder.map((o) => o.kind));
  });

  it('refuses an add with settings its kind does not take, naming the problem, and adds nothing', async () => {
    const owner = await signUpOwner(t);
    const form = await createForm(t, owner.token);
    const refused = [
      { id: 6, name: 'Age', settings: { min: 10, max: 1 } },
      { id: 7, name: 'Stars', settings: { max: 11 } },
      { id: 8, name: 'Scale', settings: { from: 2, to: 10 } },
      { id: 9, name: 'Note', settings: { text: '   ' } },
      { id: 9, name: 'Note', required: true, settings: { text: 'Hello' } },
      { id: 10, name: 'Terms' },
      { id: 14, name: 'Unknown' },
    ];
    for (const body of refused) {
      const res = await as(owner).post(`/api/text/${form._id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message).toBeTruthy();
    }
    const after = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(after.items).toEqual([]);
  });

  it('change through their own call: settings checked against the kind, a refusal changing nothing', async () => {
    const { owner, form, more } = await moreKindsForm(t);
    const guests = more('Guests');
    const url = (id: string) => `/api/updateQuestion/${form._id}/${id}`;
    const changed = await as(owner).put(url(guests._id), {
      name: 'How many guests?',
      required: false,
      help: 'Children count too',
      settings: { min: 0, max: 20, decimals: true },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Form>().moreField[0]).toMatchObject({
      name: 'How many guests?',
      required: false,
      help: 'Children count too',
      settings: { min: 0, max: 20, decimals: true },
    });
    for (const [id, body] of [
      [guests._id, { name: 'Guests', settings: { min: 5, max: 1 } }],
      [more('Your stay')._id, { name: 'Stay', settings: { max: 2 } }],
      [more('Before you answer')._id, { name: 'Note', required: true }],
      [more('Arrival time')._id, { name: 'Time', settings: { any: 1 } }],
    ] as const) {
      const res = await as(owner).put(url(id), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const after = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(after.moreField).toEqual(changed.json<Form>().moreField);
    // Not one of these kinds: the product's own calls answer for those.
    const other = await createForm(t, owner.token);
    const text = (
      await as(owner).post(`/api/text/${other._id}`, { id: 1, name: 'Name', type: 'text' })
    ).json<Form>();
    expect((await as(owner).put(url(text.textField[0]?._id ?? ''), { name: 'X' })).statusCode).toBe(404);
  });

  it('are deleted by their own call, and another owner can neither change nor delete them', async () => {
    const { owner, form, more } = await moreKindsForm(t);
    const stranger = await signUpOwner(t);
    const id = more('Your website')._id;
    expect((await as(stranger).delete(`/api/deleteQuestion/${form._id}/${id}`)).statusCode).toBe(404);
    expect((await as(stranger).put(`/api/updateQuestion/${form._id}/${id}`, { name: 'X' })).statusCode).toBe(
      404,
    );
    const res = await as(owner).delete(`/api/deleteQuestion/${form._id}/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Form>().moreField.map((f) => f.name)).not.toContain('Your website');
  });

  it('are saved with the list of items and survive an export and an import', async () => {
    const { owner, form } = await moreKindsForm(t);
    const reordered = [...form.items].reverse();
    const saved = await as(owner).put(`/api/v1/form/${form._id}/items`, {
      items: reordered,
      version: form.version,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Form>().items).toEqual(reordered);
    const exported = await as(owner).get(`/api/exportForm/${form._id}`);
    const imported = await as(owner).post('/api/importForm', exported.json());
    expect(imported.statusCode, imported.body).toBe(201);
    const copy = imported.json<Form>();
    const strip = (f: Form) => f.items.map(({ _id: _, ...rest }) => rest);
    expect(strip(copy)).toEqual(strip(saved.json<Form>()));
    // An export's `fields` carries them too, for a reader of the older shape.
    expect(exported.json<{ fields: { kind: string }[] }>().fields.map((f) => f.kind)).toContain('rating');
  });
});
