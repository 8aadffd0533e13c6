import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { Submission, SubmissionBody } from '#common/submissions.ts';
import { bearer, ownerRequests } from '../../../testing/owner-requests.ts';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { JPEG, multipart, PDF } from '../../../testing/test-files.ts';
import { form, idOf, other, owner, setUpSubmissions, t } from '../test-fixture.ts';
import { ALREADY_SENT_MESSAGE } from './submitter.ts';
const as = ownerRequests(() => t);

const { asOwner, buildForm, submit, uploadFor, validBody } = setUpSubmissions();

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

    it("accepts the original client's answers keyed by question names", async () => {
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

    it("claims a file uploaded with no form id and no token (an anonymous upload), but not an owner's profile document", async () => {
      const post = (headers: Record<string, string> = {}) => {
        const body = multipart('id.pdf', PDF);
        return t.app
          .inject({
            method: 'POST',
            url: '/api/profile',
            payload: body.payload,
            headers: { ...body.headers, ...headers },
          })
          .then((r) => r.json<{ _id: string }>());
      };
      const anonymous = await post();
      const body = await validBody();
      body.fileObject = { [idOf(form, 'ID proof')]: { deleteId: anonymous._id } };
      const res = await submit(body);
      expect(res.statusCode, res.body).toBe(200);
      const [row] = await t.app.db.query<{ form_id: string; client_key: string | null }>(
        'select form_id, client_key from uploads where submission_id = $1',
        [res.json<{ _id: string }>()._id],
      );
      // Claimed: it joins the form (deleted with it) and no longer keeps its uploader's address hash.
      expect(row).toEqual({ form_id: form._id, client_key: null });

      const document = await post(bearer(owner));
      const withDocument = await validBody();
      withDocument.fileObject = { [idOf(form, 'ID proof')]: { deleteId: document._id } };
      expect((await submit(withDocument)).json().error.message).toMatch(
        /^ID proof: This file was not uploaded for this form/,
      );
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

    it('answers 409 ALREADY_SENT to other answers under a stored key, keeping the first; a retry of either gets its answer', async () => {
      const before = (await asOwner(owner.token, '/api/formSummary')).json()[0].count;
      const body = await validBody();
      const key = randomUUID();
      const first = await submit(body, owner.id, { 'idempotency-key': key });
      expect(first.statusCode).toBe(200);
      const nameId = Object.keys(body.textObject ?? {})[0] ?? '';
      const changed = { ...body, textObject: { ...body.textObject, [nameId]: 'Priya S. Sharma' } };
      const conflict = await submit(changed, owner.id, { 'idempotency-key': key });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json().error).toEqual({ code: 'ALREADY_SENT', message: ALREADY_SENT_MESSAGE });
      // The same answers again (a retry whose answer was lost): the first id, though its file is claimed now.
      const retry = await submit(body, owner.id, { 'idempotency-key': key });
      expect(retry.statusCode).toBe(200);
      expect(retry.json()._id).toBe(first.json()._id);
      // Answers that differ only in spacing are the same answers once read.
      const spaced = { ...body, textObject: { ...body.textObject, [nameId]: '  Priya Sharma ' } };
      expect((await submit(spaced, owner.id, { 'idempotency-key': key })).statusCode).toBe(200);
      const stored = (await asOwner(owner.token, `/api/forms/${first.json()._id}`)).json();
      expect(JSON.stringify(stored)).toContain('Priya Sharma');
      expect(JSON.stringify(stored)).not.toContain('Priya S. Sharma');
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
      as(token).put(`/api/updateFormEntry/${f._id}`, { acceptingResponses });

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
});
