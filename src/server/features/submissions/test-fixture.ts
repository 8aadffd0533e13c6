// What the submissions tests share: one app per test file (each file imports its own copy of this module), two
// owners, a form with every kind of question, and the calls a customer's page and an owner's page make.
import { afterAll, beforeAll } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { SubmissionBody, UploadResponse } from '#common/submissions.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, type TestApp } from '../../testing/test-app.ts';
import { multipart, PDF } from '../../testing/test-files.ts';

export let t: TestApp;
export let owner: { token: string; id: string };
export let other: { token: string; id: string };
/** A form with one question of every kind, made before the file's tests. */
export let form: Form;

/** A form with one question of every kind and type, some required. */
export async function buildForm(token: string): Promise<Form> {
  const as = ownerRequests(() => t);
  let f = (await as(token).post('/api/v1/length', {})).json<Form>();
  for (const field of [
    { id: 1, name: 'Name', type: 'text', required: true },
    { id: 1, name: 'Email', type: 'email', required: true },
    { id: 1, name: 'Phone', type: 'tel' },
    { id: 1, name: 'Arrival', type: 'date' },
    { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }], required: true },
    { id: 3, name: 'Meal', options: [{ value: 'Veg' }, { value: 'Non-veg' }] },
    { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }], required: true },
    { id: 5, name: 'ID proof', required: true },
    { id: 5, name: 'Photo' },
  ]) {
    f = (await as(token).post(`/api/text/${f._id}`, field)).json<Form>();
  }
  return f;
}

/**
 * Starts the test app with two owners and a form before the file's tests, and closes it after them; gives the calls
 * the tests make (the app, the owners and the form are the live bindings above).
 */
export function setUpSubmissions() {
  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpOwner(t, { fullName: 'Owner One' });
    other = await signUpOwner(t, { fullName: 'Owner Two' });
    form = await buildForm(owner.token);
  });
  afterAll(async () => {
    await t?.close();
  });
  return { asOwner, buildForm, countOf, submit, uploadFor, validBody };
}

export const idOf = (f: Form, name: string) => {
  const field = fieldsOf(f).find((x) => x.name === name);
  if (!field) throw new Error(`no question ${name}`);
  return field._id;
};
export const uploadFor = async (f: Form, name = 'id.pdf', content = PDF) =>
  (
    await t.app.inject({ method: 'POST', url: `/api/profile?formId=${f._id}`, ...multipart(name, content) })
  ).json<UploadResponse>();

export async function validBody(f: Form = form): Promise<SubmissionBody> {
  const file = await uploadFor(f);
  return {
    formStructureId: f._id,
    formTitle: f.formTitle,
    textObject: {
      [idOf(f, 'Name')]: 'Priya Sharma',
      [idOf(f, 'Email')]: 'priya@example.com',
      [idOf(f, 'Phone')]: '+91 98765 43210',
    },
    selectedValues: { [idOf(f, 'Room')]: 'Double' },
    selectedRadio: { [idOf(f, 'Meal')]: 'Veg' },
    selectedCheckboxes: [{ name: idOf(f, 'Extras'), values: ['Wifi'] }],
    fileObject: {
      [idOf(f, 'ID proof')]: {
        deleteId: file._id,
        value: file.file,
        originalName: file.name,
        name: 'ID proof',
      },
    },
  };
}
export const submit = (body: unknown, ownerId = owner.id, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/forms/${ownerId}`, payload: body as object, headers });
export const asOwner = (token: string, url: string) => ownerRequests(() => t)(token).get(url);

/** The form's response count as the owner's summary gives it. */
export const countOf = async (f: Form) =>
  (await asOwner(owner.token, '/api/formSummary'))
    .json<{ _id: string; count: number }[]>()
    .find((x) => x._id === f._id)?.count;
