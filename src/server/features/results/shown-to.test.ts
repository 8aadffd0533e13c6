// Results say how many responses each question was shown to (docs/decisions/042-pages-and-conditions.md): a question on
// a page some answers skip, or with a condition of its own, was shown to fewer responses than the form has. Kept by
// counters on insert and delete, like the rest of Results, and equal to a recount from the stored rows.
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { FormResults } from '#common/results.ts';
import { bookingForm } from '../../testing/booking-items.ts';
import { ownerRequests } from '../../testing/owner-requests.ts';
import { setUpTestApp, TEST_ENGINE } from '../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

type Texts = Record<string, string>;
async function submit(form: Form, texts: Texts, radio: Texts): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, textObject: texts, selectedRadio: radio },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ _id: string }>()._id;
}

/** Each question's name, with how many responses it was shown to and how many answered it. */
type Seen = Record<string, { shownTo: number; answered: number }>;
async function seen(owner: { token: string }, form: Form): Promise<{ responses: number; questions: Seen }> {
  const results = (await as(owner).get(`/api/formResults/${form._id}`)).json<FormResults>();
  const questions = Object.fromEntries(
    results.questions.map((q) => [q.name, { shownTo: q.shownTo, answered: q.answered }]),
  );
  return { responses: results.responses, questions };
}

describe(`Results of a branching form on ${TEST_ENGINE}`, () => {
  it('count the responses each question was shown to, kept on delete and equal to a recount', async () => {
    const { owner, form, id } = await bookingForm(t);
    const name = id('Your name');
    const stay = id('Do you need a room?');
    const nights = id('How many nights?');
    const diet = id('Any diet?');
    const first = await submit(form, { [name]: 'Asha' }, { [stay]: 'No' });
    await submit(form, { [name]: 'Ravi', [nights]: '2', [diet]: 'Vegan' }, { [stay]: 'Yes' });
    await submit(form, { [name]: 'Mina', [nights]: '1', [diet]: 'None' }, { [stay]: 'Yes' });

    expect(await seen(owner, form)).toEqual({
      responses: 3,
      questions: {
        'Your name': { shownTo: 3, answered: 3 },
        'Do you need a room?': { shownTo: 3, answered: 3 },
        'How many nights?': { shownTo: 2, answered: 2 },
        'Any diet?': { shownTo: 2, answered: 2 },
      },
    });

    // The response that skipped the room's page goes: every question was shown to both that are left.
    expect((await as(owner).delete(`/api/forms/${first}`)).statusCode).toBe(200);
    const afterDelete = await seen(owner, form);
    expect(afterDelete.questions['How many nights?']).toEqual({ shownTo: 2, answered: 2 });
    expect(afterDelete.questions['Any diet?']).toEqual({ shownTo: 2, answered: 2 });

    await t.app.db.query('select rebuild_form_results($1)', [form._id]);
    expect(await seen(owner, form)).toEqual(afterDelete);
  });
});
