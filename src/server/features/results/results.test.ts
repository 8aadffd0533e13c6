import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChoiceField, Form } from '#common/forms.ts';
import { percentOf, type FormResults } from '#common/results.ts';
import type { SubmissionBody, UploadResponse } from '#common/submissions.ts';
import { DEFAULT_RATE_LIMITS } from '../../runtime/config.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';
import { multipart, PDF } from '../../testing/test-files.ts';

let t: TestApp;
let owner: { token: string; id: string };
let other: { token: string; id: string };

beforeAll(async () => {
  t = await createTestApp({
    rateLimits: { ...DEFAULT_RATE_LIMITS, submissionsPerIp: { max: 1_000_000, windowMs: 60_000 } },
  });
  owner = await signUpOwner(t, { fullName: 'Owner One' });
  other = await signUpOwner(t, { fullName: 'Owner Two' });
});
afterAll(async () => {
  await t?.close();
});

const requests = ownerRequests(() => t);
const as = (token: string, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
  requests(token).send(method, url, payload);

/** A form with one question of every kind. */
async function buildForm(): Promise<Form> {
  let f = (await as(owner.token, 'POST', '/api/v1/length', {})).json<Form>();
  for (const field of [
    { id: 1, name: 'Name', type: 'text', required: true },
    { id: 2, name: 'Room', options: [{ value: 'Single' }, { value: 'Double' }, { value: 'Suite' }] },
    { id: 3, name: 'Meal', options: [{ value: 'Veg' }, { value: 'Non-veg' }] },
    { id: 4, name: 'Extras', options: [{ value: 'Wifi' }, { value: 'Parking' }, { value: 'Gym' }] },
    { id: 1, name: 'Comments', type: 'textarea' },
    { id: 5, name: 'ID proof' },
  ]) {
    f = (await as(owner.token, 'POST', `/api/text/${f._id}`, field)).json<Form>();
  }
  return f;
}

const fieldOf = (f: Form, name: string) => {
  const all = [...f.textField, ...f.selectField, ...f.radioField, ...f.checkField, ...f.fileField];
  const field = all.find((x) => x.name === name);
  if (!field) throw new Error(`no question ${name}`);
  return field;
};
const idOf = (f: Form, name: string) => fieldOf(f, name)._id;

type Answer = {
  name: string;
  room?: string;
  meal?: string;
  extras?: string[];
  comment?: string;
  file?: boolean;
};

/** Submits through the public route, as the customer's page does; answers the new submission's id. */
async function submit(f: Form, a: Answer): Promise<string> {
  const body: SubmissionBody = {
    formStructureId: f._id,
    textObject: { [idOf(f, 'Name')]: a.name, ...(a.comment ? { [idOf(f, 'Comments')]: a.comment } : {}) },
    selectedValues: a.room ? { [idOf(f, 'Room')]: a.room } : {},
    selectedRadio: a.meal ? { [idOf(f, 'Meal')]: a.meal } : {},
    selectedCheckboxes: a.extras ? [{ name: idOf(f, 'Extras'), values: a.extras }] : [],
  };
  if (a.file) {
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/profile?formId=${f._id}`,
      ...multipart('id.pdf', PDF),
    });
    const file = upload.json<UploadResponse>();
    body.fileObject = {
      [idOf(f, 'ID proof')]: { deleteId: file._id, value: file.file, originalName: file.name },
    };
  }
  const res = await t.app.inject({ method: 'POST', url: `/api/forms/${owner.id}`, payload: body });
  if (res.statusCode !== 200) throw new Error(`submit answered ${res.statusCode} ${res.body}`);
  return res.json<{ _id: string }>()._id;
}

const resultsOf = async (f: Form, token = owner.token) => {
  const res = await as(token, 'GET', `/api/formResults/${f._id}`);
  expect(res.statusCode).toBe(200);
  return res.json<FormResults>();
};
const questionOf = (r: FormResults, name: string) => {
  const q = r.questions.find((x) => x.name === name);
  if (!q) throw new Error(`no result for ${name}`);
  return q;
};
const optionsOf = (r: FormResults, name: string) => {
  const q = questionOf(r, name);
  return 'options' in q ? q.options : [];
};

describe(`GET /api/formResults/:fid on ${TEST_ENGINE}`, () => {
  it('counts every kind of question after real submissions, in the form order, with percentages', async () => {
    const f = await buildForm();
    await submit(f, { name: 'A', room: 'Double', meal: 'Veg', extras: ['Wifi', 'Gym'], file: true });
    await submit(f, { name: 'B', room: 'Double', extras: ['Wifi'], comment: 'Quiet room please' });
    const newest = await submit(f, { name: 'C', room: 'Single', meal: 'Non-veg', file: true });

    const r = await resultsOf(f);
    expect(r.formTitle).toBe(f.formTitle);
    expect(r.responses).toBe(3);
    expect(r.questions.map((q) => [q.name, q.kind])).toEqual([
      ['Name', 'text'],
      ['Room', 'select'],
      ['Meal', 'radio'],
      ['Extras', 'check'],
      ['Comments', 'text'],
      ['ID proof', 'file'],
    ]);
    expect(optionsOf(r, 'Room')).toEqual([
      { value: 'Single', count: 1, percent: 33.3, offered: true },
      { value: 'Double', count: 2, percent: 66.7, offered: true },
      { value: 'Suite', count: 0, percent: 0, offered: true },
    ]);
    expect(questionOf(r, 'Meal').answered).toBe(2);
    expect(optionsOf(r, 'Meal').map((o) => [o.value, o.count, o.percent])).toEqual([
      ['Veg', 1, 50],
      ['Non-veg', 1, 50],
    ]);
    // A checkbox's percentage is of the responses that answered it: options add up to more than 100.
    expect(optionsOf(r, 'Extras').map((o) => [o.value, o.count, o.percent])).toEqual([
      ['Wifi', 2, 100],
      ['Parking', 0, 0],
      ['Gym', 1, 50],
    ]);
    expect(questionOf(r, 'ID proof')).toEqual({
      fieldId: idOf(f, 'ID proof'),
      name: 'ID proof',
      answered: 2,
      // A form without pages asks every question of every response.
      shownTo: 3,
      kind: 'file',
    });
    const names = questionOf(r, 'Name');
    expect(names.kind === 'text' && names.latest.map((a) => a.value)).toEqual(['C', 'B', 'A']);
    expect(names.kind === 'text' && names.latest[0]?.submissionId).toBe(newest);
    const comments = questionOf(r, 'Comments');
    expect(comments.answered).toBe(1);
    expect(comments.kind === 'text' && comments.latest.map((a) => a.value)).toEqual(['Quiet room please']);
    // The link leads to the response itself.
    const link = comments.kind === 'text' ? comments.latest[0]?.submissionId : '';
    expect((await as(owner.token, 'GET', `/api/forms/${link}`)).json()).toMatchObject({ contact: 'B' });

    expect(r.days).toHaveLength(30);
    expect(r.days.at(-1)).toMatchObject({ responses: 3 });
    expect(r.days.slice(0, -1).every((d) => d.responses === 0)).toBe(true);
  });

  it('shows only the newest five submissions for a text question', async () => {
    const f = await buildForm();
    for (const name of ['1', '2', '3', '4', '5', '6', '7']) await submit(f, { name });
    const q = questionOf(await resultsOf(f), 'Name');
    expect(q.answered).toBe(7);
    expect(q.kind === 'text' && q.latest.map((a) => a.value)).toEqual(['7', '6', '5', '4', '3']);
  });

  it('counts opens of the public form as views and gives the completion rate', async () => {
    const f = await buildForm();
    const before = await resultsOf(f);
    expect(before).toMatchObject({ views: 0, completionRate: null });
    for (let i = 0; i < 4; i++) {
      expect((await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` })).statusCode).toBe(200);
    }
    await submit(f, { name: 'A' });
    const r = await resultsOf(f);
    expect(r.views).toBe(4);
    expect(r.completionRate).toBe(0.25);
    expect(r.days.at(-1)).toMatchObject({ responses: 1, views: 4 });
    // No cookie is set by the public form.
    const open = await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` });
    expect(open.headers['set-cookie']).toBeUndefined();
    expect((await resultsOf(f)).views).toBe(5);
    // Our own page's fetch (after a reload of /preview) belongs to a visit its link page already counted.
    const again = { 'sec-fetch-site': 'same-origin' };
    await t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}`, headers: again });
    expect((await resultsOf(f)).views).toBe(5);
  });

  it("answers 404 for another owner's form and an unknown id, 401 without a token, 400 for a bad id", async () => {
    const f = await buildForm();
    expect((await as(other.token, 'GET', `/api/formResults/${f._id}`)).statusCode).toBe(404);
    expect((await as(owner.token, 'GET', `/api/formResults/${randomUUID()}`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/formResults/${f._id}` })).statusCode).toBe(401);
    const bad = await as(owner.token, 'GET', '/api/formResults/not-a-form');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Not a valid form id/);
  });

  it('keeps answers to a renamed or removed option as "no longer offered" and drops a removed question', async () => {
    let f = await buildForm();
    await submit(f, { name: 'A', meal: 'Veg', room: 'Suite' });
    await submit(f, { name: 'B', meal: 'Veg' });
    const meal = fieldOf(f, 'Meal') as ChoiceField;
    const veg = meal.options.find((o) => o.value === 'Veg');
    f = (
      await as(owner.token, 'PUT', `/api/updateRadioOption/${f._id}/${meal._id}/${veg?._id}`, {
        name: 'Vegetarian',
      })
    ).json<Form>();
    const room = fieldOf(f, 'Room') as ChoiceField;
    const suite = room.options.find((o) => o.value === 'Suite');
    expect(
      (await as(owner.token, 'DELETE', `/api/deleteOption/${f._id}/${room._id}/${suite?._id}`)).statusCode,
    ).toBe(200);
    expect(
      (await as(owner.token, 'DELETE', `/api/deleteText/${f._id}/${idOf(f, 'Comments')}`)).statusCode,
    ).toBe(200);
    await submit(f, { name: 'C', meal: 'Vegetarian' });

    const r = await resultsOf(f);
    expect(optionsOf(r, 'Meal')).toEqual([
      { value: 'Vegetarian', count: 1, percent: 33.3, offered: true },
      { value: 'Non-veg', count: 0, percent: 0, offered: true },
      { value: 'Veg', count: 2, percent: 66.7, offered: false },
    ]);
    expect(optionsOf(r, 'Room')).toEqual([
      { value: 'Single', count: 0, percent: 0, offered: true },
      { value: 'Double', count: 0, percent: 0, offered: true },
      { value: 'Suite', count: 1, percent: 100, offered: false },
    ]);
    expect(r.questions.map((q) => q.name)).not.toContain('Comments');
  });

  it('equals counts computed from the stored submissions for random answers, written in batches', async () => {
    const f = await buildForm();
    const answer = fc.record({
      name: fc.constantFrom('Asha', 'Ravi', 'Meera'),
      room: fc.option(fc.constantFrom('Single', 'Double', 'Suite'), { nil: undefined }),
      meal: fc.option(fc.constantFrom('Veg', 'Non-veg'), { nil: undefined }),
      extras: fc.option(fc.subarray(['Wifi', 'Parking', 'Gym'], { minLength: 1 }), { nil: undefined }),
      comment: fc.option(fc.constantFrom('Late arrival', 'Ground floor'), { nil: undefined }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 1, maxLength: 12 }), async (answers) => {
        // Sent together, so the writer stores them in one or a few batches (one statement each).
        await Promise.all(answers.map((a) => submit(f, a)));
        const stored = await t.app.db.query<{ answers: { fieldId: string; kind: string; value: unknown }[] }>(
          'select answers from submissions where form_id = $1',
          [f._id],
        );
        const r = await resultsOf(f);
        expect(r.responses).toBe(stored.length);
        for (const q of r.questions) {
          const given = stored.flatMap((s) => s.answers.filter((a) => a.fieldId === q.fieldId));
          expect(q.answered).toBe(given.length);
          if (!('options' in q)) continue;
          const chosen = given.flatMap((a) => (Array.isArray(a.value) ? a.value : [a.value]));
          for (const o of q.options) {
            const count = chosen.filter((v) => v === o.value).length;
            expect([o.value, o.count, o.percent]).toEqual([o.value, count, percentOf(count, given.length)]);
          }
        }
        // The migration's recount from the stored rows (its backfill) agrees with the counters kept on insert.
        await t.app.db.query('select rebuild_form_results($1)', [f._id]);
        expect(await resultsOf(f)).toEqual(r);
      }),
      { numRuns: 12 },
    );
  });
});
