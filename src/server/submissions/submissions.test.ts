import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission, SubmissionBody, UploadResponse } from '#common/submissions.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../test-app.ts';
import { JPEG, multipart, PDF } from '../test-files.ts';
import { CSV_PAGE_ROWS } from './csv.ts';

let t: TestApp;
let owner: { token: string; id: string };
let other: { token: string; id: string };
let form: Form;

/** A form with one question of every kind and type, some required. */
async function buildForm(token: string): Promise<Form> {
  const auth = { authorization: `Bearer ${token}` };
  let f = (
    await t.app.inject({ method: 'POST', url: '/api/v1/length', headers: auth, payload: {} })
  ).json<Form>();
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
    f = (
      await t.app.inject({ method: 'POST', url: `/api/text/${f._id}`, headers: auth, payload: field })
    ).json<Form>();
  }
  return f;
}

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpOwner(t, { fullName: 'Owner One' });
  other = await signUpOwner(t, { fullName: 'Owner Two' });
  form = await buildForm(owner.token);
});
afterAll(async () => {
  await t?.close();
});

const idOf = (f: Form, name: string) => {
  const all = [...f.textField, ...f.selectField, ...f.radioField, ...f.checkField, ...f.fileField];
  const field = all.find((x) => x.name === name);
  if (!field) throw new Error(`no question ${name}`);
  return field._id;
};
const uploadFor = async (f: Form, name = 'id.pdf', content = PDF) =>
  (
    await t.app.inject({ method: 'POST', url: `/api/profile?formId=${f._id}`, ...multipart(name, content) })
  ).json<UploadResponse>();

async function validBody(f: Form = form): Promise<SubmissionBody> {
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
const submit = (body: unknown, ownerId = owner.id, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/forms/${ownerId}`, payload: body as object, headers });
const asOwner = (token: string, url: string) =>
  t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

describe(`submissions on ${TEST_ENGINE}`, () => {
  describe('GET /api/publicForm/:fid', () => {
    it('gives the questions without the owner, 404 for an unknown form', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/publicForm/${form._id}` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).not.toHaveProperty('ownerIdAsStructureId');
      expect(res.json().fieldOrder).toHaveLength(9);
      expect((await t.app.inject({ method: 'GET', url: `/api/publicForm/${randomUUID()}` })).statusCode).toBe(
        404,
      );
    });
  });

  describe('POST /api/forms/:ownerId', () => {
    it('stores a valid submission that its owner then reads in full, with a working file URL', async () => {
      const res = await submit(await validBody());
      expect(res.statusCode, res.body).toBe(200);
      const { _id } = res.json<{ _id: string }>();
      const read = await asOwner(owner.token, `/api/forms/${_id}`);
      expect(read.statusCode).toBe(200);
      const s = read.json<Submission>();
      expect(s).toMatchObject({
        formStructureId: form._id,
        formTitle: form.formTitle,
        contact: 'Priya Sharma · priya@example.com',
        textObject: { Name: 'Priya Sharma', Email: 'priya@example.com', Phone: '+91 98765 43210' },
        selectedValues: { Room: 'Double' },
        selectedRadio: { Meal: 'Veg' },
        selectedCheckboxes: [{ name: 'Extras', values: ['Wifi'] }],
      });
      expect(s.answers.map((a) => a.name)).toEqual([
        'Name',
        'Email',
        'Phone',
        'Room',
        'Meal',
        'Extras',
        'ID proof',
      ]);
      const file = s.answers.find((a) => a.kind === 'file')?.file;
      expect(file).toMatchObject({ originalName: 'id.pdf', mimeType: 'application/pdf' });
      expect((await t.app.inject({ method: 'GET', url: file?.url ?? '' })).statusCode).toBe(200);
    });

    it('accepts the spec client keyed by question names', async () => {
      const file = await uploadFor(form, 'me.jpg', JPEG);
      const res = await submit({
        formStructureId: form._id,
        textObject: { Name: 'Arjun', Email: 'arjun@example.com' },
        selectedValues: { Room: 'Single' },
        selectedCheckboxes: [{ name: 'Extras', values: ['Parking', 'Wifi'] }],
        fileObject: { 'ID proof': { deleteId: file._id, originalName: 'me.jpg' } },
      });
      expect(res.statusCode, res.body).toBe(200);
    });

    const cases: [string, (b: SubmissionBody) => void, string][] = [
      [
        'a missing required text',
        (b) => delete b.textObject?.[idOf(form, 'Name')],
        'Name: This question is required',
      ],
      [
        'a blank required text',
        (b) => void (b.textObject![idOf(form, 'Name')] = '   '),
        'Name: This question is required',
      ],
      [
        'a malformed email',
        (b) => void (b.textObject![idOf(form, 'Email')] = 'priya@'),
        'Email: Enter a valid email address',
      ],
      [
        'a malformed phone',
        (b) => void (b.textObject![idOf(form, 'Phone')] = 'call me'),
        'Phone: Enter a valid phone number',
      ],
      [
        'an impossible date',
        (b) => void (b.textObject![idOf(form, 'Arrival')] = '2026-02-30'),
        'Arrival: Enter a valid date',
      ],
      [
        'a dropdown answer not among the options',
        (b) => void (b.selectedValues![idOf(form, 'Room')] = 'Suite'),
        'Room: Choose one of the options',
      ],
      ['a missing required dropdown', (b) => void (b.selectedValues = {}), 'Room: Choose an option'],
      [
        'a radio answer not among the options',
        (b) => void (b.selectedRadio![idOf(form, 'Meal')] = 'Vegan'),
        'Meal: Choose one of the options',
      ],
      [
        'a checkbox answer not among the options',
        (b) => void (b.selectedCheckboxes = [{ name: idOf(form, 'Extras'), values: ['Spa'] }]),
        'Extras: Choose among the options',
      ],
      [
        'no box ticked on a required checkbox',
        (b) => void (b.selectedCheckboxes = [{ name: idOf(form, 'Extras'), values: [] }]),
        'Extras: Tick at least one option',
      ],
      ['a missing required file', (b) => void (b.fileObject = {}), 'ID proof: Upload a file'],
      [
        'a question that is not on the form',
        (b) => void (b.textObject!['Favourite colour'] = 'blue'),
        'Favourite colour: This question is not on the form',
      ],
      [
        'a file that was never uploaded',
        (b) => void (b.fileObject = { [idOf(form, 'ID proof')]: { deleteId: 'x'.repeat(43) } }),
        'ID proof: This file was not uploaded for this form; upload it again',
      ],
    ];
    it.each(cases)(
      'answers 400 naming the question for %s, and stores nothing',
      async (_name, spoil, message) => {
        const before = (await asOwner(owner.token, '/api/formSummary')).json()[0].count;
        const body = await validBody();
        spoil(body);
        const res = await submit(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({ code: 'VALIDATION_FAILED', message });
        expect((await asOwner(owner.token, '/api/formSummary')).json()[0].count).toBe(before);
      },
    );

    it('refuses a file uploaded for another form, or one another submission already used', async () => {
      const otherForm = await buildForm(other.token);
      const foreign = await uploadFor(otherForm);
      const body = await validBody();
      body.fileObject = { [idOf(form, 'ID proof')]: { deleteId: foreign._id } };
      expect((await submit(body)).json().error.message).toMatch(
        /^ID proof: This file was not uploaded for this form/,
      );
      const first = await validBody();
      expect((await submit(first)).statusCode).toBe(200);
      const reuse = await validBody();
      reuse.fileObject = first.fileObject;
      expect((await submit(reuse)).statusCode).toBe(400);
    });

    it('answers 400 when the owner in the link is not the form owner, 404 for an unknown form', async () => {
      const wrongOwner = await submit(await validBody(), other.id);
      expect(wrongOwner.statusCode).toBe(400);
      expect(wrongOwner.json().error.message).toMatch(/^ownerId: /);
      const unknown = await submit({ ...(await validBody()), formStructureId: randomUUID() });
      expect(unknown.statusCode).toBe(404);
    });

    it('stores one submission for a retried Idempotency-Key and answers with the first id', async () => {
      const before = (await asOwner(owner.token, '/api/formSummary')).json()[0].count;
      const body = await validBody();
      const key = randomUUID();
      const first = await submit(body, owner.id, { 'idempotency-key': key });
      const again = await submit(body, owner.id, { 'idempotency-key': key });
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.json()._id).toBe(first.json()._id);
      expect((await asOwner(owner.token, '/api/formSummary')).json()[0].count).toBe(before + 1);
    });

    it('answers a filled honeypot like a success and stores nothing', async () => {
      const before = (await asOwner(owner.token, '/api/formSummary')).json()[0].count;
      const res = await submit({ ...(await validBody()), website: 'http://spam.example' });
      expect(res.statusCode).toBe(200);
      expect((await asOwner(owner.token, `/api/forms/${res.json()._id}`)).statusCode).toBe(404);
      expect((await asOwner(owner.token, '/api/formSummary')).json()[0].count).toBe(before);
    });
  });

  describe('a form its owner closed', () => {
    const setOpen = (f: Form, acceptingResponses: unknown, token = owner.token) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/updateFormEntry/${f._id}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { acceptingResponses },
      });

    it('takes no submission or upload (410 with a message) until it is opened again; stored ones stay', async () => {
      const f = await buildForm(owner.token);
      const key = { 'idempotency-key': 'before-closing-1' };
      const body = await validBody(f);
      const before = (await submit(body, owner.id, key)).json<{ _id: string }>()._id;
      const pending = await validBody(f); // uploaded while the form was open, submitted after it closed

      const closed = await setOpen(f, false);
      expect(closed.statusCode).toBe(200);
      expect(closed.json<Form>().acceptingResponses).toBe(false);
      const publicForm = await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` });
      expect(publicForm.statusCode).toBe(410);
      expect(publicForm.json()).toEqual({
        error: { code: 'FORM_CLOSED', message: 'This form is no longer accepting responses' },
      });
      const late = await submit(pending);
      expect(late.statusCode).toBe(410);
      expect(late.json().error.code).toBe('FORM_CLOSED');
      const upload = await t.app.inject({
        method: 'POST',
        url: `/api/profile?formId=${f._id}`,
        ...multipart('late.pdf', PDF),
      });
      expect(upload.statusCode).toBe(410);
      // A retry of what was accepted before closing still gets its first answer, and nothing new is stored.
      expect((await submit(body, owner.id, key)).json()).toEqual({ _id: before });
      expect((await asOwner(owner.token, `/api/forms/${before}`)).statusCode).toBe(200);
      const summary = (await asOwner(owner.token, '/api/formSummary')).json<
        { _id: string; count: number }[]
      >();
      expect(summary.find((s) => s._id === f._id)?.count).toBe(1);

      expect((await setOpen(f, true)).json<Form>().acceptingResponses).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` })).statusCode).toBe(200);
      expect((await submit(pending)).statusCode).toBe(200);
    });

    it('is closed only by its owner, with a boolean', async () => {
      const f = await buildForm(owner.token);
      expect((await setOpen(f, false, other.token)).statusCode).toBe(404);
      const notBoolean = await setOpen(f, 'no');
      expect(notBoolean.statusCode).toBe(400);
      expect(notBoolean.json().error.message).toMatch(/acceptingResponses/);
      expect((await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` })).statusCode).toBe(200);
    });
  });

  describe('concurrent submissions (group commit)', () => {
    const countOf = async (f: Form) =>
      (await asOwner(owner.token, '/api/formSummary'))
        .json<{ _id: string; count: number }[]>()
        .find((x) => x._id === f._id)?.count;

    it('stores every valid one with its own answers and answers each mistake on its own', async () => {
      const f = await buildForm(owner.token);
      const bodies = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const body = await validBody(f);
          body.textObject![idOf(f, 'Name')] = `Guest ${i}`;
          return body;
        }),
      );
      const missingName = await validBody(f);
      delete missingName.textObject![idOf(f, 'Name')];
      const [bad, unknown, ...good] = await Promise.all([
        submit(missingName),
        submit({ ...(await validBody(f)), formStructureId: randomUUID() }),
        ...bodies.map((b) => submit(b)),
      ]);
      expect(bad?.statusCode).toBe(400);
      expect(bad?.json().error.message).toMatch(/^Name: /);
      expect(unknown?.statusCode).toBe(404);
      expect(good.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
      const ids = good.map((r) => r.json<{ _id: string }>()._id);
      expect(new Set(ids).size).toBe(12);
      expect(await countOf(f)).toBe(12);
      for (const [i, id] of ids.entries()) {
        const stored = (await asOwner(owner.token, `/api/forms/${id}`)).json<Submission>();
        expect(stored.textObject.Name).toBe(`Guest ${i}`);
        expect(stored.fileObject['ID proof']?.originalName).toBe('id.pdf');
      }
    });

    it('stores one submission when the same Idempotency-Key arrives several times at once', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      const headers = { 'idempotency-key': randomUUID() };
      const answers = await Promise.all(Array.from({ length: 4 }, () => submit(body, owner.id, headers)));
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      expect(new Set(answers.map((r) => r.json()._id)).size).toBe(1);
      expect(await countOf(f)).toBe(1);
    });

    it('keeps one row per Idempotency-Key on a form without files, even once the form has changed', async () => {
      const auth = { authorization: `Bearer ${owner.token}` };
      let f = (
        await t.app.inject({ method: 'POST', url: '/api/v1/length', headers: auth, payload: {} })
      ).json<Form>();
      f = (
        await t.app.inject({
          method: 'POST',
          url: `/api/text/${f._id}`,
          headers: auth,
          payload: { id: 1, name: 'Name', type: 'text', required: true },
        })
      ).json<Form>();
      const body = {
        formStructureId: f._id,
        formTitle: f.formTitle,
        textObject: { [idOf(f, 'Name')]: 'Ana' },
      };
      // From an address of its own: the file's other tests use up most of one address's submissions a minute.
      const send = (key: string) =>
        t.app.inject({
          method: 'POST',
          url: `/api/forms/${owner.id}`,
          payload: body,
          headers: { 'idempotency-key': key },
          remoteAddress: '10.9.9.9',
        });
      const key = randomUUID();
      const [first, ...twins] = await Promise.all(Array.from({ length: 4 }, () => send(key)));
      expect(first?.statusCode, first?.body).toBe(200);
      const id = first?.json<{ _id: string }>()._id;
      expect(twins.map((r) => r.json<{ _id: string }>()._id)).toEqual([id, id, id]);
      expect((await send(key)).json()).toEqual({ _id: id });
      // The owner adds a required question: the same body is no longer valid, but its retry is answered as before.
      await t.app.inject({
        method: 'POST',
        url: `/api/text/${f._id}`,
        headers: auth,
        payload: { id: 1, name: 'City', type: 'text', required: true },
      });
      expect((await send(key)).json()).toEqual({ _id: id });
      const fresh = await send(randomUUID());
      expect(fresh.statusCode).toBe(400);
      expect(fresh.json().error.message).toMatch(/^City: /);
      expect(await countOf(f)).toBe(1);
    });

    it('lets only one of two simultaneous submissions claim the same upload', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      const [a, b, c] = await Promise.all([submit(body), submit(body), submit(await validBody(f))]);
      expect([a?.statusCode, b?.statusCode].sort()).toEqual([200, 400]);
      expect(c?.statusCode).toBe(200);
      expect(await countOf(f)).toBe(2);
    });
  });

  describe('a form its owner edits while customers submit', () => {
    it('checks each submission against the form as it is now, never as it was', async () => {
      const auth = { authorization: `Bearer ${owner.token}` };
      const edit = async (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
        const res = await t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json<Form>();
      };
      let f = await edit('POST', '/api/v1/length', {});
      f = await edit('POST', `/api/text/${f._id}`, { id: 1, name: 'Name', type: 'text', required: true });
      f = await edit('POST', `/api/text/${f._id}`, { id: 2, name: 'Size', options: [{ value: 'S' }] });
      const nameId = idOf(f, 'Name');
      const sizeId = idOf(f, 'Size');
      let cityId = '';
      const send = (answers: { name?: string; size?: string; city?: string }) =>
        t.app.inject({
          method: 'POST',
          url: `/api/forms/${owner.id}`,
          remoteAddress: '10.9.9.10',
          payload: {
            formStructureId: f._id,
            formTitle: f.formTitle,
            textObject: {
              ...(answers.name ? { [nameId]: answers.name } : {}),
              ...(answers.city ? { [cityId]: answers.city } : {}),
            },
            selectedValues: answers.size ? { [sizeId]: answers.size } : {},
          },
        });
      const stored = async (res: Awaited<ReturnType<typeof send>>) => {
        expect(res.statusCode, res.body).toBe(200);
        return (
          await asOwner(owner.token, `/api/forms/${res.json<{ _id: string }>()._id}`)
        ).json<Submission>();
      };
      await stored(await send({ name: 'Ana', size: 'S' }));

      // A new option is accepted at once.
      f = await edit('POST', `/api/addOption/${f._id}/${sizeId}`, { value: 'XL' });
      expect((await stored(await send({ name: 'Ben', size: 'XL' }))).selectedValues).toEqual({ Size: 'XL' });
      // A removed option is refused at once.
      const small = f.selectField[0]?.options.find((o) => o.value === 'S');
      f = await edit('DELETE', `/api/deleteOption/${f._id}/${sizeId}/${small?._id}`);
      const removed = await send({ name: 'Cy', size: 'S' });
      expect(removed.statusCode).toBe(400);
      expect(removed.json().error.message).toMatch(/^Size: /);
      // A renamed question stores its answers under the new name.
      f = await edit('PUT', `/api/updateText/${f._id}/${nameId}`, { name: 'Full name' });
      expect((await stored(await send({ name: 'Dee' }))).textObject).toEqual({ 'Full name': 'Dee' });
      // A new required question is required at once.
      f = await edit('POST', `/api/text/${f._id}`, { id: 1, name: 'City', type: 'text', required: true });
      cityId = idOf(f, 'City');
      const missing = await send({ name: 'Eve' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.message).toMatch(/^City: /);
      expect((await stored(await send({ name: 'Eve', city: 'Pune' }))).textObject.City).toBe('Pune');
      // A deleted form takes nothing.
      await edit('DELETE', `/api/deleteForm/${f._id}`);
      expect((await send({ name: 'Fay', city: 'Goa' })).statusCode).toBe(404);
    });
  });

  describe('owner reads', () => {
    it('answers 404 to another owner for the submission and its list, and 401 without a token', async () => {
      const { _id } = (await submit(await validBody())).json<{ _id: string }>();
      expect((await asOwner(other.token, `/api/forms/${_id}`)).statusCode).toBe(404);
      expect((await asOwner(other.token, `/api/formSubmissions/${form._id}`)).statusCode).toBe(404);
      expect((await asOwner(other.token, `/api/formSubmissions/${form._id}/csv`)).statusCode).toBe(404);
      expect((await asOwner(other.token, '/api/forms')).json()).toEqual([]);
      expect((await t.app.inject({ method: 'GET', url: `/api/forms/${_id}` })).statusCode).toBe(401);
      expect((await asOwner(owner.token, `/api/forms/${randomUUID()}`)).statusCode).toBe(404);
    });

    it('summarises each form: count, newest date, and null for a form without responses', async () => {
      const fresh = await buildForm(owner.token);
      const summary = (await asOwner(owner.token, '/api/formSummary')).json<
        { _id: string; count: number; Date: string | null }[]
      >();
      expect(summary[0]).toMatchObject({ _id: fresh._id, count: 0, Date: null });
      const main = summary.find((s) => s._id === form._id);
      expect(main?.count).toBeGreaterThan(0);
      expect(main?.Date).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, /);
    });

    it("pages a form's submissions newest first, forwards, backwards and from the oldest", async () => {
      const f = await buildForm(owner.token);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const body = await validBody(f);
        body.textObject![idOf(f, 'Name')] = `Person ${i}`;
        ids.push((await submit(body)).json()._id);
      }
      const newestFirst = [...ids].reverse();
      const page1 = (await asOwner(owner.token, `/api/formSubmissions/${f._id}?limit=2`)).json();
      expect(page1.total).toBe(5);
      expect(page1.items.map((i: { _id: string }) => i._id)).toEqual(newestFirst.slice(0, 2));
      expect(page1.items[0].contact).toBe('Person 4 · priya@example.com');
      expect(page1.prevCursor).toBeNull();
      const page2 = (
        await asOwner(owner.token, `/api/formSubmissions/${f._id}?limit=2&after=${page1.nextCursor}`)
      ).json();
      expect(page2.items.map((i: { _id: string }) => i._id)).toEqual(newestFirst.slice(2, 4));
      const back = (
        await asOwner(owner.token, `/api/formSubmissions/${f._id}?limit=2&before=${page2.prevCursor}`)
      ).json();
      expect(back.items.map((i: { _id: string }) => i._id)).toEqual(newestFirst.slice(0, 2));
      const last = (await asOwner(owner.token, `/api/formSubmissions/${f._id}?limit=2&from=oldest`)).json();
      expect(last.items.map((i: { _id: string }) => i._id)).toEqual(newestFirst.slice(3, 5));
      expect(last.nextCursor).toBeNull();
      expect((await asOwner(owner.token, `/api/formSubmissions/${f._id}?after=garbage`)).statusCode).toBe(
        400,
      );
    });

    it('exports CSV with one column per question and formulas defused', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      body.textObject![idOf(f, 'Name')] = '=HYPERLINK("http://evil.example","click")';
      body.textObject![idOf(f, 'Phone')] = '+91 98765 43210';
      await submit(body);
      const res = await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe('Submitted,Name,Email,Phone,Arrival,Room,Meal,Extras,ID proof,Photo');
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(lines[1]).toContain("'+91 98765 43210");
      expect(lines[1]).toContain('id.pdf');
    });

    it('keeps a column for a question deleted after it had answers, and none for one deleted before', async () => {
      const f = await buildForm(owner.token);
      const auth = { authorization: `Bearer ${owner.token}` };
      const remove = (fieldId: string) =>
        t.app.inject({ method: 'DELETE', url: `/api/deleteText/${f._id}/${fieldId}`, headers: auth });
      // Arrival was never answered, and goes before any response: nothing to keep.
      expect((await remove(idOf(f, 'Arrival'))).statusCode).toBe(200);
      const body = await validBody(f);
      delete body.textObject![idOf(f, 'Arrival')];
      expect((await submit(body)).statusCode).toBe(200);
      // Phone was answered: its column stays, after the current questions, with the answer in it.
      expect((await remove(idOf(f, 'Phone'))).statusCode).toBe(200);
      const res = await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv`);
      const [header, row] = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(header).toBe('Submitted,Name,Email,Room,Meal,Extras,ID proof,Photo,Phone (deleted question)');
      expect(row?.endsWith(",'+91 98765 43210")).toBe(true);
    });

    it('exports every submission exactly once, newest first, across many pages', async () => {
      const f = await buildForm(owner.token);
      expect((await submit(await validBody(f))).statusCode).toBe(200);
      // Copies of that submission, one second apart, each with its own name: more rows than two pages.
      const copies = CSV_PAGE_ROWS * 2 + 7;
      const [stored] = await t.app.db.query<{ answers: { fieldId: string }[] }>(
        'select answers from submissions where form_id = $1',
        [f._id],
      );
      const nameAt = stored?.answers.findIndex((a) => a.fieldId === idOf(f, 'Name'));
      await t.app.db.query(
        `insert into submissions (form_id, owner_id, created_at, form_title, description, color, border, answers, contact)
         select form_id, owner_id, created_at + make_interval(secs => g), form_title, description, color, border,
                jsonb_set(answers, array[$3::text, 'value'], to_jsonb('Customer ' || g)), contact
           from submissions, generate_series(1, $2::int) as g
          where form_id = $1`,
        [f._id, copies, String(nameAt)],
      );
      const res = await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv`);
      expect(res.statusCode).toBe(200);
      const rows = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n')
        .slice(1);
      const names = rows.map((line) => line.replace(/^("[^"]*"|[^,]*),/, '').split(',')[0]);
      const expected = Array.from({ length: copies }, (_, i) => `Customer ${copies - i}`);
      expect(names).toEqual([...expected, 'Priya Sharma']);
    });

    it('deleting the form deletes its submissions and files', async () => {
      const f = await buildForm(owner.token);
      const body = await validBody(f);
      const { _id } = (await submit(body)).json<{ _id: string }>();
      const fileUrl = (await asOwner(owner.token, `/api/forms/${_id}`))
        .json<Submission>()
        .answers.find((a) => a.file)?.file?.url;
      const files = async () => (await readdir(join(t.app.config.dataDir, 'uploads'))).length;
      const before = await files();
      const del = await t.app.inject({
        method: 'DELETE',
        url: `/api/deleteForm/${f._id}`,
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(del.statusCode).toBe(200);
      expect((await asOwner(owner.token, `/api/forms/${_id}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: fileUrl ?? '' })).statusCode).toBe(404);
      expect(await files()).toBe(before - 1);
    });
  });
});
