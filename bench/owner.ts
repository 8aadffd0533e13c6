// The owner and the 10-question form every part of the bench uses, made through the real HTTP API.
import type { Form } from '#common/forms.ts';
import { createOwner, type TestOwner } from '../e2e/support/owner.ts';
import type { StoredAnswer } from '../src/server/features/submissions/repository.ts';
import type { MailCapture } from '../src/server/testing/mail-capture.ts';

/** Text-only questions (no file), so a submission is one JSON POST. */
export const TEN_QUESTIONS = {
  easyForm: 1,
  formTitle: 'Workshop registration',
  description: 'Tell us who you are and what you would like to do.',
  color: '#FFFFFF',
  border: '#1A73E8',
  fields: [
    { kind: 'text', name: 'Full name', type: 'text', required: true },
    { kind: 'text', name: 'Email', type: 'email', required: true },
    { kind: 'text', name: 'Phone', type: 'tel', required: true },
    { kind: 'text', name: 'Date of birth', type: 'date', required: false },
    { kind: 'text', name: 'City', type: 'text', required: false },
    { kind: 'text', name: 'Address', type: 'textarea', required: false },
    { kind: 'select', name: 'T-shirt size', required: true, options: ['S', 'M', 'L', 'XL'] },
    { kind: 'radio', name: 'Attending', required: true, options: ['Yes', 'No', 'Maybe'] },
    { kind: 'check', name: 'Interests', required: false, options: ['Design', 'Code', 'Music', 'Sports'] },
    { kind: 'text', name: 'Comments', type: 'textarea', required: false },
  ],
} as const;

/** What a customer types, by question name. */
const ANSWERS: Record<string, string | string[]> = {
  'Full name': 'Priya Natarajan',
  Email: 'priya.natarajan@example.com',
  Phone: '+91 98450 12345',
  'Date of birth': '1994-07-21',
  City: 'Bengaluru',
  Address: '14, 2nd Cross, Indiranagar\nBengaluru 560038',
  'T-shirt size': 'M',
  Attending: 'Yes',
  Interests: ['Design', 'Code'],
  Comments: 'Looking forward to it. I will bring my own laptop.',
};

export type BenchOwner = TestOwner;

export async function signUpOwner(url: string, mail: MailCapture): Promise<BenchOwner> {
  const server = { url, mail, output: () => '', stop: async () => undefined };
  return createOwner(server, 'Bench Owner');
}

export async function api<T>(url: string, token: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const createForm = (url: string, owner: BenchOwner) =>
  api<Form>(url, owner.token, 'POST', '/api/importForm', TEN_QUESTIONS);

const fieldsOf = (form: Form) =>
  [...form.textField, ...form.selectField, ...form.radioField, ...form.checkField].map((f) => ({
    id: f._id,
    name: f.name,
  }));

/** The body the customer's page sends (keys are question ids), the same for every request. */
export function submissionBody(form: Form): Record<string, unknown> {
  const textObject: Record<string, string> = {};
  for (const f of form.textField) textObject[f._id] = String(ANSWERS[f.name]);
  const one = (fields: Form['selectField']) =>
    Object.fromEntries(fields.map((f) => [f._id, String(ANSWERS[f.name])]));
  return {
    formStructureId: form._id,
    textObject,
    selectedValues: one(form.selectField),
    selectedRadio: one(form.radioField),
    selectedCheckboxes: form.checkField.map((f) => ({ name: f._id, values: ANSWERS[f.name] })),
    fileObject: {},
  };
}

/** The answers as the server stores them, in question order: the template the seeder varies per row. */
export function storedAnswers(form: Form): StoredAnswer[] {
  const byId = new Map(fieldsOf(form).map((f) => [f.id, f.name]));
  return form.fieldOrder.map(({ _id, kind }) => {
    const name = byId.get(_id) ?? '';
    return { fieldId: _id, kind, name, value: ANSWERS[name] ?? '' };
  });
}
