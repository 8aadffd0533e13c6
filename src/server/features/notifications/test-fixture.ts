// What the notification tests share: a form with a text, an email, a choice and a file question, and a customer's
// submission to it.
import type { Form } from '#common/forms.ts';
import { fieldsOf } from '#common/forms.ts';
import type { UploadResponse } from '#common/submissions.ts';
import type { CapturedMail } from '../../testing/mail-capture.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createForm, type TestApp } from '../../testing/test-app.ts';
import { multipart, PDF } from '../../testing/test-files.ts';

export { eventually } from '../../testing/eventually.ts';

export async function notifyingForm(
  t: TestApp,
  token: string,
  options: { title?: string; email?: boolean } = {},
): Promise<Form> {
  const as = ownerRequests(t)(token);
  let form = await createForm(t, token, options.title ? { formTitle: options.title } : {});
  const fields = [
    { id: 1, name: 'Name', type: 'text', required: true },
    ...(options.email === false ? [] : [{ id: 1, name: 'Email', type: 'email' }]),
    { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }] },
    { id: 5, name: 'ID proof' },
  ];
  for (const field of fields) {
    const res = await as.post(`/api/text/${form._id}`, field);
    form = res.json<Form>();
  }
  if (options.title) {
    const res = await as.put(`/api/updateFormEntry/${form._id}`, { formTitle: options.title });
    form = res.json<Form>();
  }
  return form;
}

const idOf = (form: Form, name: string) => fieldsOf(form).find((f) => f.name === name)?._id ?? name;

/** Submits as a customer; answers 200 with the submission id, or throws. */
export async function respond(
  t: TestApp,
  form: Form,
  answers: { name: string; email?: string; file?: string },
): Promise<string> {
  const textObject: Record<string, string> = { [idOf(form, 'Name')]: answers.name };
  if (answers.email) textObject[idOf(form, 'Email')] = answers.email;
  const fileObject: Record<string, { deleteId: string }> = {};
  if (answers.file) {
    const upload = (
      await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${form._id}`,
        ...multipart(answers.file, PDF),
      })
    ).json<UploadResponse>();
    fileObject[idOf(form, 'ID proof')] = { deleteId: upload._id };
  }
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: {
      formStructureId: form._id,
      textObject,
      selectedValues: { [idOf(form, 'Room')]: 'Double' },
      fileObject,
    },
  });
  if (res.statusCode !== 200) throw new Error(`submit failed: ${res.statusCode} ${res.body}`);
  return res.json<{ _id: string }>()._id;
}

export const mailsTo = (t: TestApp, to: string): CapturedMail[] =>
  t.mail.mails.filter((m) => m.to.includes(to.toLowerCase()));
