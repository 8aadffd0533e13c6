import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TEMPLATES } from '#common/form-templates.ts';
import type { Form, FormDefinition } from '#common/forms.ts';
import { bearer } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let alice: { token: string; id: string };
let bob: { token: string; id: string };
beforeAll(async () => {
  t = await createTestApp();
  alice = await signUpOwner(t);
  bob = await signUpOwner(t);
});
afterAll(async () => {
  await t?.close();
});

const as =
  (owner: { token: string } | null) =>
  (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      ...(owner ? { headers: bearer(owner) } : {}),
      ...(payload ? { payload } : {}),
    });

const definition = (fields: FormDefinition['fields'] = []): FormDefinition => ({
  easyForm: 1,
  formTitle: 'Imported',
  description: 'From a file',
  color: '#EAEAEA',
  border: '#00D78B',
  fields,
});

describe(`forms on ${TEST_ENGINE}`, () => {
  describe('POST /api/v1/length', () => {
    it.each(Object.entries(FORM_TEMPLATES))(
      'creates the %s template with its title, colours and questions',
      async (id, template) => {
        const res = await as(alice)('POST', '/api/v1/length', {
          template: id,
          ownerIdAsStructureId: bob.id,
          Date: 'x',
        });
        expect(res.statusCode).toBe(201);
        const form = res.json<Form>();
        expect(form).toMatchObject({
          ownerIdAsStructureId: alice.id,
          formTitle: template.formTitle,
          description: template.description,
          color: template.color,
          border: template.border,
        });
        expect(form.Date).toMatch(/^\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2} [AP]M$/);
        expect(form.fieldOrder.map((f) => f.kind)).toEqual(template.fields.map((f) => f.kind));
      },
    );

    it('starts the event template on three pages, the stay asked only of those who need accommodation', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', { template: 'event' })).json<Form>();
      const id = (name: string) => form.items.find((i) => 'name' in i && i.name === name)?._id;
      const breaks = form.items.filter((i) => i.kind === 'page');
      expect(breaks.map((b) => b.title)).toEqual(['Your booking', 'Your stay', 'Anything else']);
      expect(breaks[1]?.condition).toEqual({
        question: id('Do you need accommodation?'),
        op: 'is',
        value: 'Yes',
      });
      const answers = (need: string, stay: Record<string, string> = {}) => ({
        formStructureId: form._id,
        textObject: {
          [id('Full name') ?? '']: 'Asha',
          [id('Email') ?? '']: 'asha@example.com',
          [id('Event') ?? '']: 'Expo',
          ...stay,
        },
        selectedRadio: { [id('Ticket type') ?? '']: 'VIP', [id('Do you need accommodation?') ?? '']: need },
      });
      const submit = (payload: object) =>
        t.app.inject({ method: 'POST', url: `/api/forms/${alice.id}`, payload });
      expect((await submit(answers('No'))).statusCode).toBe(200);
      // Those who need a room are asked its questions, on the server as on the page.
      expect((await submit(answers('Yes'))).json()).toMatchObject({
        error: { message: 'Arrival date: This question is required' },
      });
      // And those who do not may not answer them.
      expect((await submit(answers('No', { [id('Arrival date') ?? '']: '2027-01-02' }))).statusCode).toBe(
        400,
      );
    });

    it('makes a blank form titled Untitled by default', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', {})).json<Form>();
      expect(form).toMatchObject({
        formTitle: 'Untitled',
        description: 'From Description',
        color: '#EAEAEA',
        border: '#00D78B',
      });
    });

    it('answers 400 for an unknown template, a title over 200 characters, or a colour that is not hex', async () => {
      const post = as(alice);
      expect((await post('POST', '/api/v1/length', { template: 'wedding' })).json().error.message).toBe(
        'template: Unknown template',
      );
      expect(
        (await post('POST', '/api/v1/length', { formTitle: 'x'.repeat(201) })).json().error.message,
      ).toBe('formTitle: Title must be at most 200 characters');
      expect((await post('POST', '/api/v1/length', { border: 'green' })).statusCode).toBe(400);
    });

    it('answers 401 without a token', async () => {
      expect((await as(null)('POST', '/api/v1/length', {})).statusCode).toBe(401);
    });
  });

  describe('GET /api/v1/formStructure', () => {
    it("lists only the caller's forms, newest first", async () => {
      const carol = await signUpOwner(t);
      const first = (await as(carol)('POST', '/api/v1/length', { formTitle: 'First' })).json<Form>();
      const second = (await as(carol)('POST', '/api/v1/length', { formTitle: 'Second' })).json<Form>();
      await as(bob)('POST', '/api/v1/length', { formTitle: 'Not Carol' });
      const res = await as(carol)('GET', '/api/v1/formStructure');
      expect(res.statusCode).toBe(200);
      expect(res.json<Form[]>().map((f) => f._id)).toEqual([second._id, first._id]);
      expect((await as(null)('GET', '/api/v1/formStructure')).statusCode).toBe(401);
    });
  });

  describe('POST /api/text/:fid rules', () => {
    it('refuses duplicate, empty or too many options, naming options', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', {})).json<Form>();
      const add = (options: { value: string }[]) =>
        as(alice)('POST', `/api/text/${form._id}`, { id: 2, name: 'Pick', options });
      expect((await add([{ value: 'A' }, { value: ' A ' }])).json().error.message).toBe(
        'options: Value already exists!',
      );
      expect((await add([])).json().error.message).toBe('options: Add at least one option');
      const many = Array.from({ length: 101 }, (_, i) => ({ value: `Option ${i}` }));
      expect((await add(many)).json().error.message).toBe('options: A question can have at most 100 options');
      expect((await add([{ value: 'A' }])).statusCode).toBe(200);
    });

    it('refuses an unknown field kind', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', {})).json<Form>();
      const res = await as(alice)('POST', `/api/text/${form._id}`, { id: 14, name: 'What' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(/^id: /);
    });

    it('stops at 200 questions a form', async () => {
      const fields = Array.from({ length: 200 }, (_, i) => ({
        kind: 'file' as const,
        name: `File ${i}`,
        required: false,
      }));
      const form = (await as(alice)('POST', '/api/importForm', definition(fields))).json<Form>();
      expect(form.fileField).toHaveLength(200);
      const res = await as(alice)('POST', `/api/text/${form._id}`, { id: 1, name: 'One more' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('id: A form can have at most 200 questions');
    });

    it('reaches a field only through the routes of its kind', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', { template: 'travel' })).json<Form>();
      const select = form.selectField[0];
      if (!select) throw new Error('travel has a select question');
      const res = await as(alice)('PUT', `/api/updateText/${form._id}/${select._id}`, { name: 'Renamed' });
      expect(res.statusCode).toBe(404);
    });

    it('refuses to delete the last option of a question', async () => {
      const form = (await as(alice)('POST', '/api/v1/length', {})).json<Form>();
      const added = (
        await as(alice)('POST', `/api/text/${form._id}`, { id: 3, name: 'Only', options: [{ value: 'One' }] })
      ).json<Form>();
      const radio = added.radioField[0];
      const option = radio?.options[0];
      if (!radio || !option) throw new Error('radio question expected');
      const res = await as(alice)('DELETE', `/api/deleteRadioOption/${form._id}/${radio._id}/${option._id}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        'optionId: A question needs at least one option; delete the question instead',
      );
    });
  });

  describe('POST /api/importForm', () => {
    it('creates a new form from an exported definition, keeping the question order', async () => {
      const source = (await as(alice)('POST', '/api/v1/length', { template: 'event' })).json<Form>();
      const exported = (await as(alice)('GET', `/api/exportForm/${source._id}`)).json<FormDefinition>();
      const res = await as(bob)('POST', '/api/importForm', exported);
      expect(res.statusCode).toBe(201);
      const copy = res.json<Form>();
      expect(copy.ownerIdAsStructureId).toBe(bob.id);
      expect(copy.fieldOrder.map((f) => f.kind)).toEqual(source.fieldOrder.map((f) => f.kind));
      expect(copy.radioField[0]?.options.map((o) => o.value)).toEqual(['Standard', 'VIP', 'Student']);
    });

    it('answers 400 for invalid JSON or a file that is not an export, and creates nothing', async () => {
      const dave = await signUpOwner(t);
      const bad = await t.app.inject({
        method: 'POST',
        url: '/api/importForm',
        headers: { ...bearer(dave), 'content-type': 'application/json' },
        payload: '{"easyForm": 1, "formTitle": ',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('MALFORMED_JSON');
      const notExport = await as(dave)('POST', '/api/importForm', { title: 'Something else' });
      expect(notExport.statusCode).toBe(400);
      expect(notExport.json().error.message).toBe('easyForm: This is not an Easy Form export');
      expect((await as(dave)('GET', '/api/v1/formStructure')).json()).toEqual([]);
    });
  });

  describe('DELETE /api/deleteForm/:fid', () => {
    it('removes the form from the list and from editing', async () => {
      const erin = await signUpOwner(t);
      const form = (await as(erin)('POST', '/api/v1/length', { template: 'contact' })).json<Form>();
      expect((await as(erin)('DELETE', `/api/deleteForm/${form._id}`)).statusCode).toBe(200);
      expect((await as(erin)('GET', '/api/v1/formStructure')).json()).toEqual([]);
      expect((await as(erin)('GET', `/api/singleFormForEdit/${form._id}`)).statusCode).toBe(404);
      expect((await as(erin)('DELETE', `/api/deleteForm/${form._id}`)).statusCode).toBe(404);
    });
  });
});
