// Conditions on the link's hidden fields (issue 39): a page or a later page's question may depend on `hidden:<name>`,
// tested as text; the names must be the form's own, a hidden field a condition tests cannot be removed, export and
// import keep both, and the server holds the condition for every submit. A recall of a question added in the same
// save follows it to its new id, as a condition does.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { NOT_APPLYING } from './answers.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

/** A form declaring `plan`; page 2, asking for a company, only for links with `plan=pro`. */
async function setUp(condition: object = { question: 'hidden:plan', op: 'is', value: 'pro' }, onPage = 2) {
  const owner = await signUpOwner(t);
  const blank = await createForm(t, owner.token);
  const declared = (
    await as(owner).put(`/api/updateFormEntry/${blank._id}`, { hiddenFields: ['plan'] })
  ).json<Form>();
  const name = { kind: 'text', _id: 'n1', name: 'Your name', type: 'text', required: true };
  const company = {
    kind: 'text',
    _id: 'c1',
    name: 'Thanks, {{answer:n1|friend}}: your company?',
    type: 'text',
    required: true,
    ...(onPage === 1 ? { condition } : {}),
  };
  const page = { kind: 'page', _id: 'p2', title: 'Pro', ...(onPage === 2 ? { condition } : {}) };
  const items = onPage === 1 ? [name, company, page] : [name, page, company];
  const res = await as(owner).put(`/api/v1/form/${blank._id}/items`, { items, version: declared.version });
  return { owner, res, form: res.json<Form>() };
}

const submit = (form: Form, texts: Record<string, string>, hidden?: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, textObject: texts, ...(hidden ? { hidden } : {}) },
  });

describe('a condition on a hidden field', () => {
  it('is saved for a later page, and the server holds it for every submit', async () => {
    const { res, form } = await setUp();
    expect(res.statusCode, res.body).toBe(200);
    const [name, company] = form.textField;
    // The recall of the question added in the same save names its new id.
    expect(company?.name).toBe(`Thanks, {{answer:${name?._id}|friend}}: your company?`);
    const [n, c] = [name?._id ?? '', company?._id ?? ''];
    expect((await submit(form, { [n]: 'Asha', [c]: 'Acme' }, { plan: 'pro' })).statusCode).toBe(200);
    expect((await submit(form, { [n]: 'Asha' }, { plan: 'PRO ' })).body).toContain(
      'This question is required',
    );
    expect((await submit(form, { [n]: 'Asha' }, { plan: 'free' })).statusCode).toBe(200);
    expect((await submit(form, { [n]: 'Asha' })).statusCode).toBe(200);
    expect((await submit(form, { [n]: 'Asha', [c]: 'Acme' })).body).toContain(NOT_APPLYING);
  });

  it('is refused for a name the form does not declare, and on a question of the first page', async () => {
    const undeclared = await setUp({ question: 'hidden:ref', op: 'answered' });
    expect(undeclared.res.statusCode).toBe(400);
    expect(undeclared.res.body).toContain(
      'depends on the hidden field “ref”, which the form does not declare',
    );
    const first = await setUp({ question: 'hidden:plan', op: 'answered' }, 1);
    expect(first.res.statusCode).toBe(400);
    expect(first.res.body).toContain('a question on the first page cannot');
  });

  it('keeps its hidden field: removing it is refused until the condition goes, and export and import keep both', async () => {
    const { owner, form } = await setUp();
    const removed = await as(owner).put(`/api/updateFormEntry/${form._id}`, { hiddenFields: [] });
    expect(removed.statusCode).toBe(409);
    expect(removed.body).toContain('the hidden field “plan”');
    const still = (await as(owner).get(`/api/singleFormForEdit/${form._id}`)).json<Form>();
    expect(still.hiddenFields).toEqual(['plan']);

    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json<{ hiddenFields: string[] }>();
    expect(exported.hiddenFields).toEqual(['plan']);
    const imported = await as(owner).post('/api/importForm', exported);
    expect(imported.statusCode, imported.body).toBe(201);
    const copy = imported.json<Form>();
    expect(copy.hiddenFields).toEqual(['plan']);
    expect(copy.items.find((i) => i.kind === 'page')?.condition).toEqual({
      question: 'hidden:plan',
      op: 'is',
      value: 'pro',
    });
    const orphan = await as(owner).post('/api/importForm', { ...exported, hiddenFields: [] });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.body).toContain('does not declare');
  });
});
