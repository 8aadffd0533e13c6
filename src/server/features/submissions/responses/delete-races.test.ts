// The owner deleting responses in one tab while deleting their form in another: each request answers for itself
// (the form 200; each response 200, or 404 once the form took it), never a 500, and nothing of the form is left.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { TEST_ENGINE } from '../../../testing/test-app.ts';
import { owner, setUpSubmissions, t } from '../test-fixture.ts';
const as = ownerRequests(() => t);

const { buildForm, submit, validBody } = setUpSubmissions();

async function formWithResponses(count: number): Promise<{ f: Form; ids: string[] }> {
  const f = await buildForm(owner.token);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await submit(await validBody(f));
    expect(res.statusCode, res.body).toBe(200);
    ids.push(res.json<{ _id: string }>()._id);
  }
  return { f, ids };
}

describe(`race: deleting responses while their form is deleted, on ${TEST_ENGINE}`, () => {
  it('DELETE /api/forms/:userFormId and POST /api/formSubmissions/:fid/delete racing DELETE /api/deleteForm/:fid never answer 500', async () => {
    const forms = await Promise.all(Array.from({ length: 8 }, () => formWithResponses(4)));
    const answers = await Promise.all(
      forms.map(async ({ f, ids }) => {
        const [form, bulk, ...ones] = await Promise.all([
          as(owner).delete(`/api/deleteForm/${f._id}`),
          as(owner).post(`/api/formSubmissions/${f._id}/delete`, { ids }),
          ...ids.map((id) => as(owner).delete(`/api/forms/${id}`)),
        ]);
        return { form: form?.statusCode, bulk: bulk?.statusCode, ones: ones.map((r) => r.statusCode) };
      }),
    );
    for (const answer of answers) {
      expect(answer.form).toBe(200);
      expect([200, 404]).toContain(answer.bulk);
      for (const status of answer.ones) expect([200, 404]).toContain(status);
    }
    const left = await t.app.db.query('select 1 from submissions where form_id = any($1::uuid[])', [
      forms.map(({ f }) => f._id),
    ]);
    expect(left).toEqual([]);
  });
});
