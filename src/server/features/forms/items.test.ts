// A form's items saved as one list (PUT /api/v1/form/{fid}/items): page breaks and conditions stored, on the owner's
// and the customer's JSON, the per-kind arrays derived from them, stale saves refused, broken conditions named.
import { describe, expect, it } from 'vitest';
import type { Form, PublicForm } from '#common/forms.ts';
import type { FormItem } from '#common/logic/items.ts';
import { BOOKING_ITEMS as booking } from '../../testing/booking-items.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

async function ownerWithForm() {
  const owner = await signUpOwner(t);
  const form = await createForm(t, owner.token);
  return { owner, form };
}

const save = (token: string, form: { _id: string }, items: unknown, version: number) =>
  as(token).put(`/api/v1/form/${form._id}/items`, { items, version } as object);

describe('saving the whole list of items', () => {
  it('stores page breaks and conditions in order, with ids of their own, and derives the arrays from them', async () => {
    const { owner, form } = await ownerWithForm();
    expect(form.items).toEqual([]);
    const res = await save(owner.token, form, booking, form.version);
    expect(res.statusCode).toBe(200);
    const saved = res.json<Form>();
    expect(saved.version).toBeGreaterThan(form.version);
    expect(saved.items.map((i) => i.kind)).toEqual(['text', 'radio', 'page', 'text', 'page', 'text']);
    const [name, stay, room, nights, , diet] = saved.items;
    expect(room).toMatchObject({
      title: 'Your room',
      condition: { question: stay?._id, op: 'is', value: 'Yes' },
    });
    expect(diet).toMatchObject({ condition: { question: nights?._id, op: 'answered' } });
    expect(saved.fieldOrder.map((f) => f._id)).toEqual([name, stay, nights, diet].map((i) => i?._id));
    expect(saved.textField.map((f) => f.name)).toEqual(['Your name', 'How many nights?', 'Any diet?']);
    expect(saved.radioField[0]?.options.map((o) => o.value)).toEqual(['Yes', 'No']);

    // What the owner and the customer read back is what was saved.
    const read = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(read.items).toEqual(saved.items);
    expect(read.version).toBe(saved.version);
    const publicForm = (await t.app.inject({ url: `/api/publicForm/${form._id}` })).json<PublicForm>();
    expect(publicForm.items).toEqual(saved.items);
    expect(publicForm.version).toBe(saved.version);

    // Saved again with their stored ids, the items keep them; one left out is deleted.
    const again = await save(owner.token, form, saved.items.slice(0, 4), saved.version);
    expect(again.statusCode).toBe(200);
    expect(again.json<Form>().items).toEqual(saved.items.slice(0, 4));
  });

  it('refuses a list made from an older version, and changes nothing', async () => {
    const { owner, form } = await ownerWithForm();
    const first = (await save(owner.token, form, booking, form.version)).json<Form>();
    const stale = await save(owner.token, form, booking.slice(0, 2), form.version);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: { code: 'EDITED_MEANWHILE' } });
    const read = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(read.items).toEqual(first.items);
  });

  it('refuses broken conditions with every problem named, and stores nothing', async () => {
    const { owner, form } = await ownerWithForm();
    const broken = [
      { ...booking[0], condition: { question: 'nights', op: 'answered' } },
      ...booking.slice(1, 5),
      { ...booking[5], condition: { question: 'stay', op: 'is', value: 'Maybe' } },
    ];
    const res = await save(owner.token, form, broken, form.version);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(
      'items: The condition of “Your name” depends on “How many nights?”, which is not on an earlier page; ' +
        'The condition of “Any diet?” tests “Do you need a room?” for “Maybe”, which is not one of its options',
    );
    const missing = [...booking.slice(0, 5), { ...booking[5], condition: { question: 'gone', op: 'empty' } }];
    expect((await save(owner.token, form, missing, form.version)).json()).toMatchObject({
      error: { message: expect.stringContaining('depends on a question that is not on the form (gone)') },
    });
    const read = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(read.items).toEqual([]);
    expect(read.version).toBe(form.version);
  });

  it("refuses another owner's form, blank questions and a stored question changing kind", async () => {
    const { owner, form } = await ownerWithForm();
    const stranger = await signUpOwner(t);
    expect((await save(stranger.token, form, booking, form.version)).statusCode).toBe(404);
    const blank = await save(owner.token, form, [{ ...booking[0], name: '  ' }], form.version);
    expect(blank.statusCode).toBe(400);
    const saved = (await save(owner.token, form, booking, form.version)).json<Form>();
    const name = saved.items[0] as FormItem;
    const changed = await save(
      owner.token,
      form,
      [{ kind: 'file', _id: name._id, name: 'Your name', type: 'file', required: false }],
      saved.version,
    );
    expect(changed.statusCode).toBe(400);
    expect(changed.json<{ error: { message: string } }>().error.message).toMatch(/cannot change kind/);
  });

  it('keeps page breaks in place when the questions are reordered by the per-question call', async () => {
    const { owner, form } = await ownerWithForm();
    const saved = (await save(owner.token, form, booking, form.version)).json<Form>();
    const [name, stay, nights, diet] = saved.fieldOrder.map((f) => f._id);
    const order = [stay, name, nights, diet];
    const res = await as(owner).put(`/api/fieldOrder/${form._id}`, { order });
    expect(res.statusCode).toBe(200);
    const items = res.json<Form>().items;
    expect(items.map((i) => i.kind)).toEqual(['radio', 'text', 'page', 'text', 'page', 'text']);
    expect(items.filter((i) => i.kind !== 'page').map((i) => i._id)).toEqual(order);
    expect(res.json<Form>().version).toBeGreaterThan(saved.version);
  });

  it('refuses a per-question call that would break a condition, naming it, and changes nothing', async () => {
    const { owner, form } = await ownerWithForm();
    const saved = (await save(owner.token, form, booking, form.version)).json<Form>();
    const [name, stay, nights, diet] = saved.fieldOrder.map((f) => f._id);
    const yes = saved.radioField[0]?.options.find((o) => o.value === 'Yes')?._id;
    const attempts = [
      // "Do you need a room?" after the page whose condition tests it.
      as(owner).put(`/api/fieldOrder/${form._id}`, { order: [name, nights, stay, diet] }),
      as(owner).delete(`/api/deleteRadioText/${form._id}/${stay}`),
      as(owner).delete(`/api/deleteText/${form._id}/${nights}`),
      as(owner).put(`/api/updateRadioOption/${form._id}/${stay}/${yes}`, { name: 'Yes please' }),
      as(owner).delete(`/api/deleteRadioOption/${form._id}/${stay}/${yes}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json<{ error: { code: string; message: string } }>().error).toMatchObject({
        code: 'IN_USE',
        message: expect.stringMatching(
          /^A condition uses what this change would remove or move: (Page|The condition)/,
        ),
      });
    }
    const now = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(now.items).toEqual(saved.items);
    expect(now.version).toBe(saved.version);
    // What no condition uses still changes.
    expect((await as(owner).delete(`/api/deleteText/${form._id}/${diet}`)).statusCode).toBe(200);
  });
});

describe('export and import with items', () => {
  it('carries page breaks and conditions across, with the arrays for older readers', async () => {
    const { owner, form } = await ownerWithForm();
    const saved = (await save(owner.token, form, booking, form.version)).json<Form>();
    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json<Record<string, unknown>>();
    expect(exported.items).toEqual(saved.items);
    expect((exported.fields as unknown[]).length).toBe(4);
    const imported = await as(owner).post('/api/importForm', exported as object);
    expect(imported.statusCode).toBe(201);
    const copy = imported.json<Form>();
    expect(copy.items.map((i) => ('title' in i ? i.title : i.name))).toEqual(
      saved.items.map((i) => ('title' in i ? i.title : i.name)),
    );
    expect(copy.items[2]).toMatchObject({ condition: { question: copy.items[1]?._id } });
    expect(copy.items.map((i) => i._id)).not.toContain(saved.items[0]?._id);
  });

  it('reads an export without items from its fields, as before', async () => {
    const { owner } = await ownerWithForm();
    const definition = {
      easyForm: 1,
      formTitle: 'Old export',
      color: '#EAEAEA',
      border: '#333333',
      fields: [{ kind: 'text', name: 'Your name', type: 'text', required: true }],
    };
    const res = await as(owner).post('/api/importForm', definition);
    expect(res.statusCode).toBe(201);
    expect(res.json<Form>().items).toMatchObject([{ kind: 'text', name: 'Your name' }]);
  });

  it('refuses an import whose condition names a later or a missing question, naming it', async () => {
    const { owner } = await ownerWithForm();
    const base = { easyForm: 1, formTitle: 'Broken', color: '#EAEAEA', border: '#333333', fields: [] };
    const later = await as(owner).post('/api/importForm', {
      ...base,
      items: [{ ...booking[0], condition: { question: 'stay', op: 'answered' } }, ...booking.slice(1)],
    });
    expect(later.statusCode).toBe(400);
    expect(later.json<{ error: { message: string } }>().error.message).toBe(
      'items: The condition of “Your name” depends on “Do you need a room?”, which is not on an earlier page',
    );
    const missing = await as(owner).post('/api/importForm', {
      ...base,
      items: [...booking.slice(0, 2), { ...booking[2], condition: { question: 'nowhere', op: 'empty' } }],
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: { message: string } }>().error.message).toBe(
      'items: Page 2 depends on a question that is not on the form (nowhere)',
    );
  });
});
