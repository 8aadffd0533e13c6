import { describe, expect, it } from 'vitest';
import type { Submission, SubmissionPage } from '#common/submissions.ts';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { idOf, owner, setUpSubmissions, t } from '../test-fixture.ts';

const { asOwner, buildForm, submit, validBody } = setUpSubmissions();

describe(`the owner's clock in the responses on ${TEST_ENGINE}`, () => {
  it('reads the list’s and the CSV’s days on the owner’s clock when it is named', async () => {
    const f = await buildForm(owner.token);
    expect((await submit(await validBody(f))).statusCode).toBe(200);
    // 9:00 in the morning of 22 December in Kolkata is still the evening of the 21st in New York.
    await t.app.db.query(`update submissions set created_at = '2026-12-22T03:30:00Z' where form_id = $1`, [
      f._id,
    ]);
    const total = async (query: string) =>
      (await asOwner(owner.token, `/api/formSubmissions/${f._id}?${query}`)).json<SubmissionPage>().total;
    const rows = async (query: string) =>
      (await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv?${query}`)).body.trim().split('\n')
        .length - 1;

    const the21st = 'fromDate=2026-12-21&toDate=2026-12-21';
    expect(await total(`${the21st}&tz=America/New_York`)).toBe(1);
    expect(await rows(`${the21st}&tz=America/New_York`)).toBe(1);
    expect(await total(`fromDate=2026-12-22&tz=America/New_York`)).toBe(0);
    expect(await rows(`fromDate=2026-12-22&tz=America/New_York`)).toBe(0);
    // Without a zone, the server's: there it was the 22nd.
    expect(await total(the21st)).toBe(0);
    expect(await total('fromDate=2026-12-22')).toBe(1);
    expect(await rows('fromDate=2026-12-22')).toBe(1);
    const refused = await asOwner(owner.token, `/api/formSubmissions/${f._id}?tz=%2B05%3A30`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/tz must be a time zone name/);
  });

  it('says which answers are days, and gives the form’s making as an instant', async () => {
    const f = await buildForm(owner.token);
    expect(new Date(f.createdAt).toISOString()).toBe(f.createdAt);
    const body = await validBody(f);
    body.textObject = { ...body.textObject, [idOf(f, 'Arrival')]: '2026-12-22' };
    const { _id } = (await submit(body)).json<{ _id: string }>();

    const page = (await asOwner(owner.token, `/api/formSubmissions/${f._id}`)).json<SubmissionPage>();
    const dated = page.questions.filter((q) => q.isDate).map((q) => q.name);
    expect(dated).toEqual(['Arrival']);
    expect(page.items[0]?.answers[idOf(f, 'Arrival')]).toBe('2026-12-22');

    const one = (await asOwner(owner.token, `/api/forms/${_id}`)).json<Submission>();
    const arrival = one.answers.find((a) => a.name === 'Arrival');
    expect(arrival).toMatchObject({ isDate: true, value: '2026-12-22' });
    expect(one.answers.filter((a) => a.isDate)).toHaveLength(1);
    const all = (await asOwner(owner.token, '/api/forms')).json<Submission[]>();
    expect(all.find((s) => s._id === _id)?.answers.find((a) => a.name === 'Arrival')?.isDate).toBe(true);
  });
});
