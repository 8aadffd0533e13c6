// Hidden fields (issue 39): declared by the owner by name, filled from the form's link, sent with the answers, checked
// like any text, kept with the response and shown to the owner, in the CSV and in webhooks.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEXT_ANSWER_MAX } from '#common/answer-limits.ts';
import type { Form, PublicForm } from '#common/forms.ts';
import { HIDDEN_FIELDS_MAX } from '#common/kinds/link-values.ts';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { findSubmissionsAsPayload } from '../responses/for-webhook.ts';
import { NOT_A_HIDDEN_FIELD } from './hidden-values.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

async function formWithHidden(names: string[]) {
  const owner = await signUpOwner(t);
  const blank = await createForm(t, owner.token);
  const named = await as(owner).post(`/api/text/${blank._id}`, { id: 1, name: 'Your name', type: 'text' });
  const declared = await as(owner).put(`/api/updateFormEntry/${blank._id}`, { hiddenFields: names });
  expect(declared.statusCode, declared.body).toBe(200);
  const form = declared.json<Form>();
  expect(form.version).toBeGreaterThan(named.json<Form>().version);
  return { owner, form, nameId: form.textField[0]?._id ?? '' };
}

const submit = (form: Form, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, ...body },
  });

describe('hidden fields', () => {
  it('are declared by name, reach the customer’s copy, and are kept with the response everywhere it is read', async () => {
    const { owner, form, nameId } = await formWithHidden(['ref', 'utm_source']);
    expect(form.hiddenFields).toEqual(['ref', 'utm_source']);
    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/publicForm/${form._id}` })
    ).json<PublicForm>();
    expect(shown.hiddenFields).toEqual(['ref', 'utm_source']);

    const res = await submit(form, {
      textObject: { [nameId]: 'Asha' },
      hidden: { ref: ' crm-42 ', utm_source: '' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ _id: string }>()._id;
    const view = (await as(owner).get(`/api/forms/${id}`)).json<Submission>();
    // Trimmed, a blank one left out.
    expect(view.hidden).toEqual({ ref: 'crm-42' });
    const csv = (await as(owner).get(`/api/formSubmissions/${form._id}/csv`)).body;
    const [header, row] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(header).toContain('Your name,ref,utm_source');
    expect(row).toMatch(/,Asha,crm-42,$/);
    const payload = await findSubmissionsAsPayload(t.app.db, [id], async () => new Map());
    expect(payload.get(id)?.hidden).toEqual({ ref: 'crm-42' });

    // A response without any stores none, and says nothing of them.
    const plain = await submit(form, { textObject: { [nameId]: 'Ravi' } });
    const plainView = (
      await as(owner).get(`/api/forms/${plain.json<{ _id: string }>()._id}`)
    ).json<Submission>();
    expect(plainView).not.toHaveProperty('hidden');
  });

  it('refuse a name the form does not declare and a value too long, naming it, and store nothing', async () => {
    const { form, nameId } = await formWithHidden(['ref']);
    for (const [hidden, message] of [
      [{ campaign: 'x' }, `campaign: ${NOT_A_HIDDEN_FIELD}`],
      [{ ref: 'x'.repeat(TEXT_ANSWER_MAX + 1) }, `ref: Keep it under ${TEXT_ANSWER_MAX} characters`],
    ] as const) {
      const res = await submit(form, { textObject: { [nameId]: 'Asha' }, hidden });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const rows = await t.app.db.query('select id from submissions where form_id = $1', [form._id]);
    expect(rows).toEqual([]);
    // From a page drawn before the owner removed a field, the answers are kept and the field left out.
    const old = await submit(form, { textObject: { [nameId]: 'Asha' }, hidden: { gone: 'x' }, version: 1 });
    expect(old.statusCode, old.body).toBe(200);
  });

  it('are declared only as names a link can carry, each once, at most 20; a refusal changes nothing', async () => {
    const { owner, form } = await formWithHidden(['ref']);
    const name = fc.oneof(
      fc.constantFrom('', ' ', '1st', 'q_id', 'has space', 'a&b', 'ünïcode', 'x'.repeat(41)),
      fc.string({ minLength: 1, maxLength: 45 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(name, { maxLength: 3 }), async (names) => {
        const fits =
          names.every((n) => /^[A-Za-z][A-Za-z0-9_-]*$/.test(n.trim()) && n.trim().length <= 40) &&
          names.every((n) => !n.trim().startsWith('q_')) &&
          new Set(names.map((n) => n.trim())).size === names.length;
        const res = await as(owner).put(`/api/updateFormEntry/${form._id}`, { hiddenFields: names });
        expect(res.statusCode, JSON.stringify(names)).toBe(fits ? 200 : 400);
        if (!fits) {
          const after = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
          expect(after.hiddenFields).not.toEqual(names);
        }
      }),
      { numRuns: 40 },
    );
    const many = Array.from({ length: HIDDEN_FIELDS_MAX + 1 }, (_, i) => `f${i}`);
    expect((await as(owner).put(`/api/updateFormEntry/${form._id}`, { hiddenFields: many })).statusCode).toBe(
      400,
    );
  });
});
