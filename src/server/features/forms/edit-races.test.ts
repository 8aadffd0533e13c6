// The owner editing a form's questions in one tab while deleting the form in another: the deletion answers 200,
// each edit 200 (before it) or 404 (after), never a 500, and nothing of the form is left.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { bearer, ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner, TEST_ENGINE } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(() => t);

/** Every kind of question edit on the travel template's form: renames, an option added, renamed and deleted, a delete. */
function editsOf(f: Form): { method: 'PUT' | 'POST' | 'DELETE'; url: string; payload?: object }[] {
  const [name, email, phone, destination] = f.textField;
  const select = f.selectField[0];
  const [first, second] = select?.options ?? [];
  return [
    { method: 'PUT', url: `/api/updateText/${f._id}/${name?._id}`, payload: { name: 'Full name' } },
    { method: 'PUT', url: `/api/updateText/${f._id}/${email?._id}`, payload: { name: 'Email address' } },
    { method: 'DELETE', url: `/api/deleteText/${f._id}/${phone?._id}` },
    { method: 'DELETE', url: `/api/deleteText/${f._id}/${destination?._id}` },
    { method: 'PUT', url: `/api/updateFile/${f._id}/${f.fileField[0]?._id}`, payload: { name: 'Passport' } },
    { method: 'POST', url: `/api/addOption/${f._id}/${select?._id}`, payload: { value: '6' } },
    {
      method: 'PUT',
      url: `/api/updateOption/${f._id}/${select?._id}/${first?._id}`,
      payload: { name: 'One' },
    },
    { method: 'DELETE', url: `/api/deleteOption/${f._id}/${select?._id}/${second?._id}` },
  ];
}

describe(`race: editing questions while their form is deleted, on ${TEST_ENGINE}`, () => {
  it('DELETE /api/deleteForm/:fid racing edits of every kind: 200 for the deletion, 200 or 404 for each edit', async () => {
    const owner = await signUpOwner(t);
    const headers = bearer(owner);
    const forms = await Promise.all(
      Array.from({ length: 16 }, () => createForm(t, owner.token, { template: 'travel' })),
    );
    const answers = await Promise.all(
      forms.map(async (f) => {
        const [deleted, ...edits] = await Promise.all([
          as(owner).delete(`/api/deleteForm/${f._id}`),
          ...editsOf(f).map((edit) => t.app.inject({ ...edit, headers })),
        ]);
        return { deleted: deleted?.statusCode, edits: edits.map((r) => r.statusCode) };
      }),
    );
    for (const answer of answers) {
      expect(answer.deleted).toBe(200);
      for (const status of answer.edits) expect([200, 404]).toContain(status);
    }
    const ids = forms.map((f) => f._id);
    expect(await t.app.db.query('select 1 from forms where id = any($1::uuid[])', [ids])).toEqual([]);
    expect(await t.app.db.query('select 1 from form_fields where form_id = any($1::uuid[])', [ids])).toEqual(
      [],
    );
  });
});
