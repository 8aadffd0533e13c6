// Results' day columns on the owner's clock (issue 37): the days are counted and labelled in the zone the owner reads
// in (`?tz=`), not in the server's FORM_TIMEZONE, from counters that stay flat in the number of responses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, type Form } from '#common/forms.ts';
import type { FormResults } from '#common/results.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { createTestApp, signUpOwner, TEST_ENGINE, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;
let owner: { token: string; id: string };
const as = ownerRequests(() => t);

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUpOwner(t);
});
afterAll(async () => {
  await t?.close();
});

/** A form with one question, and a response to it; answers the form and the response's id. */
async function formWithResponse(): Promise<{ f: Form; id: string }> {
  let f = (await as(owner).post('/api/v1/length', {})).json<Form>();
  f = (await as(owner).post(`/api/text/${f._id}`, { id: 1, name: 'Name', type: 'text' })).json<Form>();
  const name = fieldsOf(f)[0]?._id ?? '';
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/forms/${owner.id}`,
    payload: { formStructureId: f._id, textObject: { [name]: 'Priya' } },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { f, id: res.json<{ _id: string }>()._id };
}

/** The day (YYYY-MM-DD) an instant falls on in a zone. */
const dayIn = (zone: string, at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(at);

const resultsIn = async (fid: string, zone?: string) =>
  (
    await as(owner).get(`/api/formResults/${fid}${zone ? `?tz=${encodeURIComponent(zone)}` : ''}`)
  ).json<FormResults>();

/** The days of the chart that have responses. */
const answeredDays = (results: FormResults) =>
  results.days.filter((d) => d.responses > 0).map((d) => ({ day: d.day, responses: d.responses }));

describe(`Results' days in the owner's zone on ${TEST_ENGINE}`, () => {
  it('counts a response on today in the zone asked for, whichever side of the date line it is', async () => {
    const { f } = await formWithResponse();
    // Kiritimati is 26 hours ahead of UTC−12: their todays are never the same day.
    for (const zone of ['Pacific/Kiritimati', 'Etc/GMT+12']) {
      const results = await resultsIn(f._id, zone);
      const today = dayIn(zone, new Date());
      expect(results.days.at(-1)).toEqual({ day: today, responses: 1, views: 0 });
      expect(results.days).toHaveLength(30);
      expect(answeredDays(results)).toEqual([{ day: today, responses: 1 }]);
    }
  });

  it('puts a response sent late in the evening in Los Angeles on that evening’s day, and takes it off when deleted', async () => {
    const { f, id } = await formWithResponse();
    // Two days ago at 06:45 UTC: the evening before in Los Angeles, the early afternoon in Kolkata.
    const at = new Date(Date.now() - 2 * 86_400_000);
    at.setUTCHours(6, 45, 0, 0);
    await t.app.db.query('update submissions set created_at = $2 where form_id = $1', [f._id, at]);
    await t.app.db.query('select rebuild_form_results($1)', [f._id]);

    const inLosAngeles = dayIn('America/Los_Angeles', at);
    expect(inLosAngeles).not.toBe(dayIn('Asia/Kolkata', at));
    expect(answeredDays(await resultsIn(f._id, 'America/Los_Angeles'))).toEqual([
      { day: inLosAngeles, responses: 1 },
    ]);
    // Without a zone, the server's (Kolkata here): the next day.
    expect(answeredDays(await resultsIn(f._id))).toEqual([{ day: dayIn('Asia/Kolkata', at), responses: 1 }]);

    expect((await as(owner).delete(`/api/forms/${id}`)).statusCode).toBe(200);
    const after = await resultsIn(f._id, 'America/Los_Angeles');
    expect(after.responses).toBe(0);
    expect(answeredDays(after)).toEqual([]);
  });

  it('refuses a zone that is not a zone name with 400', async () => {
    const { f } = await formWithResponse();
    const refused = await as(owner).get(`/api/formResults/${f._id}?tz=%2B05%3A30`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toMatch(/tz must be a time zone name/);
  });
});
