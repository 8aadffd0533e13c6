// A file question's own rules (issue 39): which of the accepted types it takes and how large a file may be, set by
// its rename call within the server's own limit, kept by the items, export and import, and held by the server for
// every submit whatever the page allowed.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { multipart, PDF, PNG } from '../../../testing/test-files.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

async function setUp(rules: object | null) {
  const owner = await signUpOwner(t);
  const blank = await createForm(t, owner.token);
  const added = (
    await as(owner).post(`/api/text/${blank._id}`, { id: 5, name: 'ID proof', required: true })
  ).json<Form>();
  const fieldId = added.fileField[0]?._id ?? '';
  const res = await as(owner).put(`/api/updateFile/${blank._id}/${fieldId}`, {
    name: 'ID proof',
    fileRules: rules,
  });
  return { owner, res, form: res.json<Form>(), fieldId };
}

async function submitWith(form: Form, fieldId: string, name: string, content: Buffer) {
  const upload = await t.app.inject({
    method: 'POST',
    url: `/api/profile?formId=${form._id}`,
    ...multipart(name, content),
  });
  expect(upload.statusCode, upload.body).toBe(200);
  const file = upload.json<UploadResponse>();
  return t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: {
      formStructureId: form._id,
      fileObject: { [fieldId]: { deleteId: file._id, value: file.file } },
    },
  });
}

describe('a file question’s own rules', () => {
  it('are set within the server’s limit, and kept by the items, export and import', async () => {
    const { owner, res, form, fieldId } = await setUp({ types: ['pdf'], maxBytes: 2_000_000 });
    expect(res.statusCode, res.body).toBe(200);
    expect(form.fileField[0]?.rules).toEqual({ types: ['pdf'], maxBytes: 2_000_000 });
    const tooBig = await as(owner).put(`/api/updateFile/${form._id}/${fieldId}`, {
      name: 'ID proof',
      fileRules: { maxBytes: 900_000_000 },
    });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.body).toContain('A size limit is at most 10.5 MB on this server');
    const none = await as(owner).put(`/api/updateFile/${form._id}/${fieldId}`, {
      name: 'ID proof',
      fileRules: { types: [] },
    });
    expect(none.body).toContain('Choose at least one type of file');
    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json<object>();
    const copy = (await as(owner).post('/api/importForm', exported)).json<Form>();
    expect(copy.fileField[0]?.rules).toEqual({ types: ['pdf'], maxBytes: 2_000_000 });
    // The whole list saved back keeps them; null removes them.
    const saved = await as(owner).put(`/api/v1/form/${copy._id}/items`, {
      items: copy.items,
      version: copy.version,
    });
    expect(saved.json<Form>().fileField[0]?.rules).toEqual({ types: ['pdf'], maxBytes: 2_000_000 });
    const cleared = await as(owner).put(`/api/updateFile/${form._id}/${fieldId}`, {
      name: 'ID proof',
      fileRules: null,
    });
    expect(cleared.json<Form>().fileField[0]).not.toHaveProperty('rules');
  });

  it('refuse a file of another type or too large at submit, naming the question, and store nothing', async () => {
    const onlyPdf = await setUp({ types: ['pdf'] });
    const png = await submitWith(onlyPdf.form, onlyPdf.fieldId, 'photo.png', PNG);
    expect(png.statusCode).toBe(400);
    expect(png.json().error.message).toBe('ID proof: Choose a PDF');
    expect((await submitWith(onlyPdf.form, onlyPdf.fieldId, 'id.pdf', PDF)).statusCode).toBe(200);

    const small = await setUp({ maxBytes: 10_000 });
    const big = Buffer.concat([PDF, Buffer.alloc(20_000, 32)]);
    const refused = await submitWith(small.form, small.fieldId, 'big.pdf', big);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('ID proof: Choose a file of 10 KB or less');
    const rows = await t.app.db.query('select id from submissions where form_id = $1', [small.form._id]);
    expect(rows).toEqual([]);
  });
});
