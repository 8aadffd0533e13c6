// A question's help text (issue 39): saved with the list of items and by the question's own rename call, carried to
// the customer's copy of the form, removed when sent empty, refused past its length, and exported and imported.
import { describe, expect, it } from 'vitest';
import type { Form, PublicForm } from '#common/forms.ts';
import { HELP_TEXT_MAX } from '#common/question-schemas.ts';
import { BOOKING_ITEMS } from '../../testing/booking-items.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);
const HELP = 'As on your passport, please.';

describe('a question’s help text', () => {
  it('is saved with the items, reaches the customer’s copy, and follows the rename call', async () => {
    const owner = await signUpOwner(t);
    const blank = await createForm(t, owner.token);
    const [name, ...rest] = BOOKING_ITEMS;
    const items = [{ ...name, help: `  ${HELP}  ` }, ...rest];
    const saved = await as(owner).put(`/api/v1/form/${blank._id}/items`, { items, version: blank.version });
    expect(saved.statusCode, saved.body).toBe(200);
    const form = saved.json<Form>();
    expect(form.items[0]).toMatchObject({ name: 'Your name', help: HELP });
    expect(form.textField[0]).toMatchObject({ help: HELP });
    expect(form.items[1]).not.toHaveProperty('help');
    const shown = await t.app.inject({ method: 'GET', url: `/api/publicForm/${form._id}` });
    expect(shown.json<PublicForm>().textField[0]?.help).toBe(HELP);

    const id = form.textField[0]?._id ?? '';
    const renamed = await as(owner).put(`/api/updateText/${form._id}/${id}`, {
      name: 'Full name',
      help: 'Any name',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<Form>().textField[0]).toMatchObject({ name: 'Full name', help: 'Any name' });
    // An export carries it, in the form's items.
    const exported = await as(owner).get(`/api/exportForm/${form._id}`);
    expect(exported.json<{ items: { help?: string }[] }>().items[0]?.help).toBe('Any name');
    // A rename that says nothing of the help text keeps it; one that sends it empty removes it.
    const kept = await as(owner).put(`/api/updateText/${form._id}/${id}`, { name: 'Your full name' });
    expect(kept.json<Form>().textField[0]?.help).toBe('Any name');
    const removed = await as(owner).put(`/api/updateText/${form._id}/${id}`, {
      name: 'Your full name',
      help: ' ',
    });
    expect(removed.json<Form>().textField[0]).not.toHaveProperty('help');
  });

  it('is refused past its length, naming it, and nothing changes', async () => {
    const owner = await signUpOwner(t);
    const blank = await createForm(t, owner.token);
    const items = [{ ...BOOKING_ITEMS[0], help: 'x'.repeat(HELP_TEXT_MAX + 1) }];
    const res = await as(owner).put(`/api/v1/form/${blank._id}/items`, { items, version: blank.version });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toContain(`A help text must be at most ${HELP_TEXT_MAX} characters`);
    const after = await as(owner).get(`/api/singleFormForEdit/${blank._id}`);
    expect(after.json<Form>().items).toEqual([]);
  });
});
