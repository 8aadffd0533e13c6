import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../testing/test-app.ts';
import { cachedFormFinder } from './form-cache.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

describe('the customer side’s forms, kept by version', () => {
  it('answers every change an owner makes, every response counted, and no form once it is deleted', async () => {
    const owner = await signUpOwner(t);
    const form = await createForm(t, owner.token);
    const find = cachedFormFinder(t.app.db, 'UTC');
    expect((await find(form._id))?.formTitle).toBe(form.formTitle);
    expect(await find(form._id)).toEqual(await find(form._id));

    await as(owner).put(`/api/updateFormEntry/${form._id}`, { formTitle: 'Renamed' });
    expect((await find(form._id))?.formTitle).toBe('Renamed');
    const added = await as(owner).post(`/api/text/${form._id}`, { id: 1, name: 'Your name', type: 'text' });
    const question = added.json<Form>().textField[0]?._id ?? '';
    expect((await find(form._id))?.textField.map((f) => f.name)).toEqual(['Your name']);
    const settings = {
      opensAt: null,
      closesAt: null,
      responseLimit: 5,
      closedMessage: null,
      thankYouMessage: 'See you soon',
      redirectUrl: null,
    };
    expect((await as(owner).put(`/api/formSettings/${form._id}`, settings)).statusCode).toBe(200);
    expect((await find(form._id))?.settings.thankYouMessage).toBe('See you soon');

    // A response raises the count, not the version: the count is read fresh.
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/forms/${owner.id}`,
      payload: { formStructureId: form._id, textObject: { [question]: 'Asha' } },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect((await find(form._id))?.responseCount).toBe(1);

    expect((await as(owner).delete(`/api/deleteForm/${form._id}`)).statusCode).toBe(200);
    expect(await find(form._id)).toBeNull();
  });
});
