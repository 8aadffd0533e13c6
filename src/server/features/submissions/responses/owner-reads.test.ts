import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Submission } from '#common/submissions.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { storedKeys, TEST_ENGINE } from '../../../testing/test-app.ts';
import { PDF } from '../../../testing/test-files.ts';
import { form, idOf, other, owner, setUpSubmissions, t } from '../test-fixture.ts';
import { CSV_PAGE_ROWS } from './csv.ts';
const as = ownerRequests(() => t);

const { asOwner, buildForm, submit, validBody } = setUpSubmissions();

describe(`the owner's view of submissions on ${TEST_ENGINE}`, () => {
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

    it('pages oldest first when asked, and gives each row its answers as text and the form its questions', async () => {
      const f = await buildForm(owner.token);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const body = await validBody(f);
        body.textObject![idOf(f, 'Name')] = `Person ${i}`;
        ids.push((await submit(body)).json()._id);
      }
      const url = `/api/formSubmissions/${f._id}?limit=2&order=oldest`;
      const first = (await asOwner(owner.token, url)).json();
      expect(first.items.map((i: { _id: string }) => i._id)).toEqual(ids.slice(0, 2));
      const next = (await asOwner(owner.token, `${url}&after=${first.nextCursor}`)).json();
      expect(next.items.map((i: { _id: string }) => i._id)).toEqual(ids.slice(2));
      expect(next.nextCursor).toBeNull();
      const back = (await asOwner(owner.token, `${url}&before=${next.prevCursor}`)).json();
      expect(back.items.map((i: { _id: string }) => i._id)).toEqual(ids.slice(0, 2));
      expect(first.questions.map((q: { name: string }) => q.name)).toEqual([
        'Name',
        'Email',
        'Phone',
        'Arrival',
        'Room',
        'Meal',
        'Extras',
        'ID proof',
        'Photo',
      ]);
      expect(first.items[0].answers).toMatchObject({
        [idOf(f, 'Name')]: 'Person 0',
        [idOf(f, 'Extras')]: 'Wifi',
        [idOf(f, 'ID proof')]: 'id.pdf',
      });
      expect((await asOwner(owner.token, `/api/formSubmissions/${f._id}?order=sideways`)).statusCode).toBe(
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
      expect(lines[0]).toBe(
        'Submitted (Asia/Kolkata),Name,Email,Phone,Arrival,Room,Meal,Extras,ID proof,Photo',
      );
      expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
      expect(lines[1]).toContain("'+91 98765 43210");
      expect(lines[1]).toContain('id.pdf');
    });

    it('links each file in the CSV with a signed URL that downloads it, and refuses the link tampered with', async () => {
      const f = await buildForm(owner.token);
      await submit(await validBody(f));
      const csv = (await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv`)).body;
      const link = / <(https?:\/\/[^>]+)>/.exec(csv)?.[1];
      expect(csv).toContain(`id.pdf <${link}>`);
      const path = new URL(link ?? 'http://x/none').pathname + new URL(link ?? 'http://x/none').search;
      expect(path).toMatch(/^\/files\//);
      // The link works without the owner's token, as a webhook's does: the signature is the permission.
      const file = await t.app.inject({ method: 'GET', url: path });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PDF)).toBe(true);
      const last = path.at(-1) === 'a' ? 'b' : 'a';
      const tampered = await t.app.inject({ method: 'GET', url: `${path.slice(0, -1)}${last}` });
      expect(tampered.statusCode).toBeGreaterThanOrEqual(400);
      expect(tampered.statusCode).toBeLessThan(500);
    });

    it('keeps a column for a question deleted after it had answers, and none for one deleted before', async () => {
      const f = await buildForm(owner.token);
      const remove = (fieldId: string) => as(owner).delete(`/api/deleteText/${f._id}/${fieldId}`);
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
      expect(header).toBe(
        'Submitted (Asia/Kolkata),Name,Email,Room,Meal,Extras,ID proof,Photo,Phone (deleted question)',
      );
      expect(row?.endsWith(",'+91 98765 43210")).toBe(true);
    });

    it('writes the CSV times in the zone asked for and names it in the header; refuses an unknown zone', async () => {
      const f = await buildForm(owner.token);
      expect((await submit(await validBody(f))).statusCode).toBe(200);
      // 9:00 in the morning of 22 December in Kolkata is still the evening before in New York.
      await t.app.db.query(`update submissions set created_at = '2026-12-22T03:30:00Z' where form_id = $1`, [
        f._id,
      ]);
      const csv = async (query: string) => {
        const res = await asOwner(owner.token, `/api/formSubmissions/${f._id}/csv${query}`);
        return {
          res,
          lines: res.body
            .replace(/^\uFEFF/, '')
            .trim()
            .split('\n'),
        };
      };
      const { lines } = await csv('?tz=America/New_York');
      expect(lines[0]?.startsWith('Submitted (America/New_York),Name,')).toBe(true);
      expect(lines[1]?.startsWith('"12/21/2026, 10:30:00 PM",')).toBe(true);
      // Without a zone, the server's.
      expect((await csv('')).lines[1]?.startsWith('"12/22/2026, 9:00:00 AM",')).toBe(true);
      for (const tz of ['Mars/Olympus_Mons', '', 'x'.repeat(300)]) {
        const { res } = await csv(`?tz=${encodeURIComponent(tz)}`);
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json()).toMatchObject({
          error: { code: 'VALIDATION_FAILED', message: expect.stringMatching(/tz must be a time zone name/) },
        });
      }
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
      const files = async () => (await storedKeys(t)).length;
      const before = await files();
      const del = await as(owner).delete(`/api/deleteForm/${f._id}`);
      expect(del.statusCode).toBe(200);
      expect((await asOwner(owner.token, `/api/forms/${_id}`)).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: fileUrl ?? '' })).statusCode).toBe(404);
      expect(await files()).toBe(before - 1);
    });
  });
});
