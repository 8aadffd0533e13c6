import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { bearer } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let alice: { token: string; id: string };
let bob: { token: string; id: string };

beforeAll(async () => {
  t = await createTestApp();
  alice = await signUpOwner(t, { fullName: 'Alice Owner' });
  bob = await signUpOwner(t, { fullName: 'Bob Other' });
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string | null, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    ...(token ? { headers: bearer(token) } : {}),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** A form of Alice's with one question of every kind, each choice question with two options. */
async function aliceForm(): Promise<Form> {
  let form = (await call('POST', '/api/v1/length', alice.token, { template: 'blank' })).json<Form>();
  const fields = [
    { id: 1, name: 'Your name', type: 'text', required: true },
    { id: 2, name: 'Country', options: [{ value: 'India' }, { value: 'Nepal' }] },
    { id: 3, name: 'Plan', options: [{ value: 'Basic' }, { value: 'Pro' }] },
    { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Meals' }] },
    { id: 5, name: 'Photo ID' },
  ];
  for (const field of fields) {
    const res = await call('POST', `/api/text/${form._id}`, alice.token, field);
    expect(res.statusCode).toBe(200);
    form = res.json<Form>();
  }
  return form;
}

type Case = {
  name: string;
  method: Method;
  /** Builds the path from the form; `swap` replaces the ids to aim at something else. */
  path: (f: Form, ids?: { fid?: string; fieldId?: string; optionId?: string }) => string;
  body?: unknown;
  badBody?: { body: unknown; message: RegExp };
  status?: number;
  check: (res: Awaited<ReturnType<typeof call>>, before: Form) => void;
};

const ids = (
  f: Form,
  kind: 'text' | 'select' | 'radio' | 'check' | 'file',
  o?: { fid?: string; fieldId?: string },
) => {
  const field = f[`${kind}Field`][0];
  if (!field) throw new Error(`no ${kind} field`);
  return { fid: o?.fid ?? f._id, fieldId: o?.fieldId ?? field._id };
};
const opt = (
  f: Form,
  kind: 'select' | 'radio' | 'check',
  o?: { fid?: string; fieldId?: string; optionId?: string },
) => {
  const field = f[`${kind}Field`][0];
  const option = field?.options[0];
  if (!field || !option) throw new Error(`no ${kind} option`);
  return `${o?.fid ?? f._id}/${o?.fieldId ?? field._id}/${o?.optionId ?? option._id}`;
};
const fieldPath =
  (route: string, kind: 'text' | 'select' | 'radio' | 'check' | 'file') =>
  (f: Form, o?: { fid?: string; fieldId?: string }) => {
    const { fid, fieldId } = ids(f, kind, o);
    return `/api/${route}/${fid}/${fieldId}`;
  };
const formOf = (res: Awaited<ReturnType<typeof call>>) => res.json<Form>();
const emptyName = { body: { name: '   ' }, message: /^name: Question cannot be empty$/ };
const emptyOption = { body: { name: '' }, message: /^name: Option cannot be empty$/ };

const CASES: Case[] = [
  {
    name: 'GET /api/singleFormForEdit/:fid',
    method: 'GET',
    path: (f, o) => `/api/singleFormForEdit/${o?.fid ?? f._id}`,
    check: (res, before) => expect(formOf(res)).toEqual(before),
  },
  {
    name: 'PUT /api/updateFormEntry/:fid',
    method: 'PUT',
    path: (f, o) => `/api/updateFormEntry/${o?.fid ?? f._id}`,
    body: { formTitle: '  Booking  ', color: '#ffdab9' },
    badBody: { body: { color: 'pink' }, message: /^color: Colour must be a hex value/ },
    check: (res) => expect(formOf(res)).toMatchObject({ formTitle: 'Booking', color: '#FFDAB9' }),
  },
  {
    name: 'POST /api/text/:fid',
    method: 'POST',
    path: (f, o) => `/api/text/${o?.fid ?? f._id}`,
    body: { id: 1, name: 'Email', type: 'email' },
    badBody: { body: { id: 1, name: 'Email', type: 'url' }, message: /^type: Type must be one of/ },
    check: (res, before) => {
      const after = formOf(res);
      expect(after.textField).toHaveLength(before.textField.length + 1);
      expect(after.textField.at(-1)).toMatchObject({ name: 'Email', type: 'email', required: false });
      expect(after.fieldOrder.at(-1)?.kind).toBe('text');
    },
  },
  {
    name: 'PUT /api/updateText/:fid/:fieldId',
    method: 'PUT',
    path: fieldPath('updateText', 'text'),
    body: { name: 'Full name', type: 'text' },
    badBody: emptyName,
    check: (res) => expect(formOf(res).textField[0]?.name).toBe('Full name'),
  },
  {
    name: 'DELETE /api/deleteText/:fid/:fieldId',
    method: 'DELETE',
    path: fieldPath('deleteText', 'text'),
    check: (res) => expect(formOf(res).textField).toEqual([]),
  },
  {
    name: 'PUT /api/updateFile/:fid/:fieldId',
    method: 'PUT',
    path: fieldPath('updateFile', 'file'),
    body: { name: 'Passport scan', type: 'file' },
    badBody: emptyName,
    check: (res) => expect(formOf(res).fileField[0]?.name).toBe('Passport scan'),
  },
  {
    name: 'DELETE /api/deleteFile/:fid/:fieldId',
    method: 'DELETE',
    path: fieldPath('deleteFile', 'file'),
    check: (res) => expect(formOf(res).fileField).toEqual([]),
  },
  {
    name: 'PUT /api/updateSelectText/:fid/:fieldId',
    method: 'PUT',
    path: fieldPath('updateSelectText', 'select'),
    body: { name: 'Country of residence' },
    badBody: emptyName,
    check: (res) => expect(formOf(res).selectField[0]?.name).toBe('Country of residence'),
  },
  {
    name: 'DELETE /api/deleteSelectText/:fid/:fieldId',
    method: 'DELETE',
    path: fieldPath('deleteSelectText', 'select'),
    check: (res) => expect(formOf(res).selectField).toEqual([]),
  },
  {
    name: 'PUT /api/updateOption/:fid/:fieldId/:optionId',
    method: 'PUT',
    path: (f, o) => `/api/updateOption/${opt(f, 'select', o)}`,
    body: { name: 'Bhutan' },
    badBody: emptyOption,
    check: (res) =>
      expect(formOf(res).selectField[0]?.options.map((x) => x.value)).toEqual(['Bhutan', 'Nepal']),
  },
  {
    name: 'DELETE /api/deleteOption/:fid/:fieldId/:optionId',
    method: 'DELETE',
    path: (f, o) => `/api/deleteOption/${opt(f, 'select', o)}`,
    check: (res) => expect(formOf(res).selectField[0]?.options.map((x) => x.value)).toEqual(['Nepal']),
  },
  {
    name: 'DELETE /api/deleteRadioText/:fid/:fieldId',
    method: 'DELETE',
    path: fieldPath('deleteRadioText', 'radio'),
    check: (res) => expect(formOf(res).radioField).toEqual([]),
  },
  {
    name: 'PUT /api/updateRadioOption/:fid/:fieldId/:optionId',
    method: 'PUT',
    path: (f, o) => `/api/updateRadioOption/${opt(f, 'radio', o)}`,
    body: { name: 'Starter' },
    badBody: emptyOption,
    check: (res) =>
      expect(formOf(res).radioField[0]?.options.map((x) => x.value)).toEqual(['Starter', 'Pro']),
  },
  {
    name: 'DELETE /api/deleteRadioOption/:fid/:fieldId/:optionId',
    method: 'DELETE',
    path: (f, o) => `/api/deleteRadioOption/${opt(f, 'radio', o)}`,
    check: (res) => expect(formOf(res).radioField[0]?.options.map((x) => x.value)).toEqual(['Pro']),
  },
  {
    name: 'PUT /api/updatecheckText/:fid/:fieldId',
    method: 'PUT',
    path: fieldPath('updatecheckText', 'check'),
    body: { name: 'Add-ons' },
    badBody: emptyName,
    check: (res) => expect(formOf(res).checkField[0]?.name).toBe('Add-ons'),
  },
  {
    name: 'DELETE /api/deletecheckText/:fid/:fieldId',
    method: 'DELETE',
    path: fieldPath('deletecheckText', 'check'),
    check: (res) => expect(formOf(res).checkField).toEqual([]),
  },
  {
    name: 'PUT /api/updatecheckOption/:fid/:fieldId/:optionId',
    method: 'PUT',
    path: (f, o) => `/api/updatecheckOption/${opt(f, 'check', o)}`,
    body: { name: 'Parking' },
    badBody: emptyOption,
    check: (res) =>
      expect(formOf(res).checkField[0]?.options.map((x) => x.value)).toEqual(['Parking', 'Meals']),
  },
  {
    name: 'DELETE /api/deletecheckOption/:fid/:fieldId/:optionId',
    method: 'DELETE',
    path: (f, o) => `/api/deletecheckOption/${opt(f, 'check', o)}`,
    check: (res) => expect(formOf(res).checkField[0]?.options.map((x) => x.value)).toEqual(['Meals']),
  },
  {
    name: 'POST /api/addOption/:fid/:fieldId',
    method: 'POST',
    path: fieldPath('addOption', 'radio'),
    body: { value: 'Enterprise' },
    badBody: { body: { value: 'Pro' }, message: /^value: Value already exists!$/ },
    check: (res) =>
      expect(formOf(res).radioField[0]?.options.map((x) => x.value)).toEqual(['Basic', 'Pro', 'Enterprise']),
  },
  {
    name: 'PUT /api/fieldOrder/:fid',
    method: 'PUT',
    path: (f, o) => `/api/fieldOrder/${o?.fid ?? f._id}`,
    body: 'reversed',
    badBody: { body: { order: [] }, message: /^order: List every question of the form exactly once$/ },
    check: (res, before) =>
      expect(formOf(res).fieldOrder.map((x) => x._id)).toEqual(before.fieldOrder.map((x) => x._id).reverse()),
  },
  {
    name: 'POST /api/duplicateForm/:fid',
    method: 'POST',
    path: (f, o) => `/api/duplicateForm/${o?.fid ?? f._id}`,
    status: 201,
    check: (res, before) => {
      const copy = formOf(res);
      expect(copy._id).not.toBe(before._id);
      expect(copy.formTitle).toBe(`Copy of ${before.formTitle}`);
      expect(copy.fieldOrder.map((x) => x.kind)).toEqual(before.fieldOrder.map((x) => x.kind));
    },
  },
  {
    name: 'GET /api/exportForm/:fid',
    method: 'GET',
    path: (f, o) => `/api/exportForm/${o?.fid ?? f._id}`,
    check: (res) => {
      expect(res.headers['content-disposition']).toMatch(/attachment; filename=".+\.easyform\.json"/);
      expect(res.json().fields.map((x: { kind: string }) => x.kind)).toEqual([
        'text',
        'select',
        'radio',
        'check',
        'file',
      ]);
    },
  },
  {
    name: 'DELETE /api/deleteForm/:fid',
    method: 'DELETE',
    path: (f, o) => `/api/deleteForm/${o?.fid ?? f._id}`,
    check: async (res) => expect(res.statusCode).toBe(200),
  },
];

const bodyFor = (c: Case, form: Form) =>
  c.body === 'reversed' ? { order: form.fieldOrder.map((x) => x._id).reverse() } : c.body;

describe(`form owner API on ${TEST_ENGINE}`, () => {
  describe.each(CASES)('$name', (c) => {
    it(`succeeds for the owner`, async () => {
      const form = await aliceForm();
      const res = await call(c.method, c.path(form), alice.token, bodyFor(c, form));
      expect(res.statusCode, res.body).toBe(c.status ?? 200);
      c.check(res, form);
    });

    it('answers 401 without a token and changes nothing', async () => {
      const form = await aliceForm();
      const res = await call(c.method, c.path(form), null, bodyFor(c, form));
      expect(res.statusCode).toBe(401);
      expect((await call('GET', `/api/singleFormForEdit/${form._id}`, alice.token)).json()).toEqual(form);
    });

    it("answers 404 for another owner's form and changes nothing", async () => {
      const form = await aliceForm();
      const res = await call(c.method, c.path(form), bob.token, bodyFor(c, form));
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
      expect((await call('GET', `/api/singleFormForEdit/${form._id}`, alice.token)).json()).toEqual(form);
    });

    it('answers 404 for an unknown id', async () => {
      const form = await aliceForm();
      const unknown = randomUUID();
      const res = await call(c.method, c.path(form, { fid: unknown }), alice.token, bodyFor(c, form));
      expect(res.statusCode).toBe(404);
      if (c.path(form).split('/').length > 4) {
        const unknownField = await call(
          c.method,
          c.path(form, { fieldId: unknown }),
          alice.token,
          bodyFor(c, form),
        );
        expect(unknownField.statusCode).toBe(404);
      }
    });

    it('answers 400 for a bad body or a malformed id, naming the field, and changes nothing', async () => {
      const form = await aliceForm();
      if (c.badBody) {
        const res = await call(c.method, c.path(form), alice.token, c.badBody.body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.message).toMatch(c.badBody.message);
      }
      const malformed = await call(
        c.method,
        c.path(form, { fid: 'not-an-id' }),
        alice.token,
        bodyFor(c, form),
      );
      expect(malformed.statusCode).toBe(400);
      expect(malformed.json().error.message).toBe('fid: Not a valid form id');
      expect((await call('GET', `/api/singleFormForEdit/${form._id}`, alice.token)).json()).toEqual(form);
    });
  });
});
