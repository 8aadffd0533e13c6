import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_SETTINGS } from '#common/form-settings.ts';
import type { Form } from '#common/forms.ts';
import type { Submission, SubmissionPage } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { storedKeys, TEST_ENGINE } from '../../../testing/test-app.ts';
import { form, idOf, other, owner, setUpSubmissions, t } from '../test-fixture.ts';

const { asOwner, buildForm, countOf, submit, validBody } = setUpSubmissions();

const as = ownerRequests(() => t);
const deleteOne = (id: string, token = owner.token) => as(token).delete(`/api/forms/${id}`);
const deleteMany = (f: Form, ids: unknown, token = owner.token) =>
  as(token).post(`/api/formSubmissions/${f._id}/delete`, { ids });
const storedFiles = async () => (await storedKeys(t)).length;

/** Submits a response to `f` whose Name answer is `name`; returns its id. */
async function submitNamed(f: Form, name: string, extras: string[] = ['Wifi']): Promise<string> {
  const body = await validBody(f);
  body.textObject![idOf(f, 'Name')] = name;
  body.selectedCheckboxes = [{ name: idOf(f, 'Extras'), values: extras }];
  const res = await submit(body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ _id: string }>()._id;
}
const listOf = async (f: Form, query = '') =>
  (await asOwner(owner.token, `/api/formSubmissions/${f._id}${query}`)).json<SubmissionPage>();

/** Every Results counter row of the form, in a fixed order. */
async function countersOf(formId: string) {
  const db = t.app.db;
  return {
    options: await db.query(
      'select field_id, option, count from form_option_counts where form_id = $1 order by 1, 2',
      [formId],
    ),
    fields: await db.query(
      'select field_id, responses from form_field_counts where form_id = $1 order by 1',
      [formId],
    ),
    days: await db.query('select quarter, responses from form_quarter_counts where form_id = $1 order by 1', [
      formId,
    ]),
    form: await db.query(
      `select response_count, latest_response_at,
              (select count(*)::int from submissions s where s.form_id = f.id) as stored,
              (select max(created_at) from submissions s where s.form_id = f.id) as newest
         from forms f where id = $1`,
      [formId],
    ),
  };
}
/** The counters kept by inserts and deletes equal a recount from the stored rows, and the form's count its rows. */
async function expectCountersToMatchRebuild(formId: string) {
  const kept = await countersOf(formId);
  await t.app.db.query('select rebuild_form_results($1)', [formId]);
  expect(kept).toEqual(await countersOf(formId));
  const [row] = kept.form as { response_count: number; stored: number; latest_response_at: Date | null }[];
  expect(row?.response_count).toBe(row?.stored);
}

describe(`managing responses on ${TEST_ENGINE}`, () => {
  describe('DELETE /api/forms/:userFormId', () => {
    it('deletes the response and its file: gone from the list, from disk, and its signed URL answers 404', async () => {
      const f = await buildForm(owner.token);
      const keep = await submitNamed(f, 'Keep me');
      const id = await submitNamed(f, 'Delete me');
      const fileUrl = (await asOwner(owner.token, `/api/forms/${id}`))
        .json<Submission>()
        .answers.find((a) => a.file)?.file?.url;
      expect(fileUrl).toBeTruthy();
      const before = await storedFiles();
      const res = await deleteOne(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ deleted: 1 });
      expect((await asOwner(owner.token, `/api/forms/${id}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: fileUrl ?? '' })).statusCode).toBe(404);
      expect(await storedFiles()).toBe(before - 1);
      expect((await listOf(f)).items.map((i) => i._id)).toEqual([keep]);
      expect(await countOf(f)).toBe(1);
      await expectCountersToMatchRebuild(f._id);
    });

    it("answers 404 for another owner's response and leaves it, 404 for an unknown id, 401 without a token", async () => {
      const id = await submitNamed(form, 'Not yours');
      expect((await deleteOne(id, other.token)).statusCode).toBe(404);
      expect((await asOwner(owner.token, `/api/forms/${id}`)).statusCode).toBe(200);
      expect((await deleteOne(randomUUID())).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/forms/${id}` })).statusCode).toBe(401);
      const bad = await deleteOne('nope');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.message).toBe('userFormId: Not a valid submission id');
    });

    it('lets a full form with a response limit accept again once a response is deleted', async () => {
      const f = await buildForm(owner.token);
      const put = await as(owner.token).put(`/api/formSettings/${f._id}`, {
        ...NO_SETTINGS,
        responseLimit: 1,
      });
      expect(put.statusCode, put.body).toBe(200);
      const body = await validBody(f);
      const first = await submitNamed(f, 'First');
      const publicForm = () => t.app.inject({ method: 'GET', url: `/api/publicForm/${f._id}` });
      expect((await submit(body)).statusCode).toBe(410);
      expect((await publicForm()).statusCode).toBe(410);
      expect((await deleteOne(first)).statusCode).toBe(200);
      expect((await publicForm()).statusCode).toBe(200);
      expect(await countOf(f)).toBe(0);
      await submitNamed(f, 'Second');
      expect(await countOf(f)).toBe(1);
    });
  });

  describe('POST /api/formSubmissions/:fid/delete', () => {
    it("deletes several with their files, leaves other owners' and other forms' ids, and says how many went", async () => {
      const f = await buildForm(owner.token);
      const a = await submitNamed(f, 'A');
      const b = await submitNamed(f, 'B', ['Wifi', 'Parking']);
      const c = await submitNamed(f, 'C');
      const elsewhere = await submitNamed(form, 'Other form');
      const theirs = await buildForm(other.token);
      const body = await validBody(theirs);
      const theirId = (await submit(body, other.id)).json<{ _id: string }>()._id;
      const before = await storedFiles();
      const res = await deleteMany(f, [a, b, elsewhere, theirId, randomUUID()]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ deleted: 2 });
      expect(await storedFiles()).toBe(before - 2);
      expect((await listOf(f)).items.map((i) => i._id)).toEqual([c]);
      expect((await asOwner(owner.token, `/api/forms/${elsewhere}`)).statusCode).toBe(200);
      expect((await asOwner(other.token, `/api/forms/${theirId}`)).statusCode).toBe(200);
      await expectCountersToMatchRebuild(f._id);
      const summary = (await asOwner(owner.token, '/api/formSummary')).json<
        { _id: string; count: number }[]
      >();
      expect(summary.find((s) => s._id === f._id)?.count).toBe(1);
    });

    it("answers 404 for another owner's form, 400 naming ids for an empty or oversized list, 401 without a token", async () => {
      const f = await buildForm(owner.token);
      expect((await deleteMany(f, [randomUUID()], other.token)).statusCode).toBe(404);
      const empty = await deleteMany(f, []);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error.message).toMatch(/^ids: /);
      const tooMany = await deleteMany(
        f,
        Array.from({ length: 501 }, () => randomUUID()),
      );
      expect(tooMany.statusCode).toBe(400);
      expect(tooMany.json().error.message).toMatch(/^ids: /);
      const bad = await deleteMany(f, ['x']);
      expect(bad.json().error.message).toBe('ids.0: Not a valid submission id');
      const anon = await t.app.inject({
        method: 'POST',
        url: `/api/formSubmissions/${f._id}/delete`,
        payload: { ids: [randomUUID()] },
      });
      expect(anon.statusCode).toBe(401);
    });

    it('keeps the Results counters equal to a recount after random submits and deletes', async () => {
      const f = await buildForm(owner.token);
      const step = fc.oneof(
        fc.record({
          submit: fc.constantFrom('Asha', 'Ravi'),
          extras: fc.subarray(['Wifi', 'Parking'], { minLength: 1 }),
        }),
        fc.record({ remove: fc.nat({ max: 5 }) }),
      );
      const live: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          for (const s of steps) {
            if ('submit' in s) live.push(await submitNamed(f, s.submit, s.extras));
            else if (live.length > 0) {
              const ids = live.splice(0, Math.min(s.remove, live.length) || 1);
              expect((await deleteMany(f, ids)).json()).toEqual({ deleted: ids.length });
            }
          }
          await expectCountersToMatchRebuild(f._id);
          expect(await countOf(f)).toBe(live.length);
        }),
        { numRuns: 6 },
      );
    });
  });

  describe('GET /api/formSubmissions/:fid with a filter, and its CSV', () => {
    it("finds answer text in any case, not other forms' responses, and takes % and _ literally", async () => {
      const f = await buildForm(owner.token);
      const asha = await submitNamed(f, 'Asha Verma');
      const pct = await submitNamed(f, '100% sure_thing');
      await submitNamed(f, 'Ravi');
      await submitNamed(form, 'Asha Elsewhere');
      const found = await listOf(f, '?q=aSHA');
      expect(found.items.map((i) => i._id)).toEqual([asha]);
      expect(found.total).toBe(1);
      expect((await listOf(f, '?q=%25')).items.map((i) => i._id)).toEqual([pct]);
      expect((await listOf(f, '?q=e_t')).items.map((i) => i._id)).toEqual([pct]);
      expect((await listOf(f, '?q=parking')).total).toBe(0);
      // Checkbox answers are searched too: every response here chose Wifi.
      expect((await listOf(f, '?q=wifi')).total).toBe(3);
      expect((await listOf(f)).total).toBe(3);
    });

    it('pages through the filtered rows with the cursor and the same filter', async () => {
      const f = await buildForm(owner.token);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(await submitNamed(f, i % 2 === 0 ? `Match ${i}` : `Other ${i}`));
      }
      const page1 = await listOf(f, '?q=match&limit=2');
      expect(page1.total).toBe(3);
      expect(page1.items.map((i) => i._id)).toEqual([ids[4], ids[2]]);
      const page2 = await listOf(f, `?q=match&limit=2&after=${page1.nextCursor}`);
      expect(page2.items.map((i) => i._id)).toEqual([ids[0]]);
      expect(page2.nextCursor).toBeNull();
    });

    it('filters by day in the form time zone, both ends inclusive, and the CSV follows', async () => {
      expect(t.app.config.formTimezone).toBe('Asia/Kolkata');
      const f = await buildForm(owner.token);
      const at = {
        'Before start': '2026-03-09T18:29:59.999Z', // 9 March 23:59:59.999 in Kolkata
        'First moment': '2026-03-09T18:30:00.000Z', // 10 March 00:00
        'Last moment': '2026-03-10T18:29:59.999Z', // 10 March 23:59:59.999
        'After end': '2026-03-10T18:30:00.000Z', // 11 March 00:00
      };
      for (const [name, time] of Object.entries(at)) {
        const id = await submitNamed(f, name);
        await t.app.db.query('update submissions set created_at = $2 where id = $1', [id, time]);
      }
      const day = await listOf(f, '?fromDate=2026-03-10&toDate=2026-03-10');
      expect(day.total).toBe(2);
      expect(day.items.map((i) => i.contact.split(' · ')[0])).toEqual(['Last moment', 'First moment']);
      expect((await listOf(f, '?fromDate=2026-03-10')).total).toBe(3);
      expect((await listOf(f, '?toDate=2026-03-10')).total).toBe(3);
      const csv = await asOwner(
        owner.token,
        `/api/formSubmissions/${f._id}/csv?fromDate=2026-03-10&q=moment`,
      );
      expect(csv.statusCode).toBe(200);
      const lines = csv.body.trim().split(/\r?\n/).slice(1);
      expect(lines).toHaveLength(2);
      expect(lines.join('\n')).toContain('Last moment');
      expect(csv.body).not.toContain('After end');
    });

    it('answers 400 naming the field for a bad date, a range ending before it starts, or too long a search', async () => {
      const f = await buildForm(owner.token);
      for (const [query, message] of [
        ['?fromDate=2026-02-30', /^fromDate: /],
        ['?fromDate=0000-02-29', /^fromDate: fromDate must be in year 1 or later$/],
        ['?toDate=yesterday', /^toDate: /],
        ['?fromDate=2026-03-10&toDate=2026-03-09', /^toDate: toDate must be on or after fromDate$/],
        [`?q=${'x'.repeat(201)}`, /^q: /],
      ] as const) {
        for (const url of [
          `/api/formSubmissions/${f._id}${query}`,
          `/api/formSubmissions/${f._id}/csv${query}`,
        ]) {
          const res = await asOwner(owner.token, url);
          expect(res.statusCode, url).toBe(400);
          expect(res.json().error.message, url).toMatch(message);
        }
      }
    });
  });
});
