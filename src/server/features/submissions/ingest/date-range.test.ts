// A date question's earliest and latest days (issue 39): set by the question's own call, checked (a real day, the
// earliest not after the latest, only on a date question), held on the server for every answer — generated around
// both bounds — and kept through export and import (the page draws it: no-script/html-more-kinds.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);
const RANGE = { earliest: '2026-12-01', latest: '2026-12-31' };

async function arrivalForm() {
  const owner = await signUpOwner(t);
  const blank = await createForm(t, owner.token);
  const form = (
    await as(owner).post(`/api/text/${blank._id}`, { id: 1, name: 'Arrival', type: 'date', required: true })
  ).json<Form>();
  const id = form.textField[0]?._id ?? '';
  const set = (body: object) =>
    as(owner).put(`/api/updateText/${form._id}/${id}`, { name: 'Arrival', ...body });
  return { owner, form, id, set };
}

const submit = (form: Form, id: string, day: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, textObject: { [id]: day } },
  });

describe('a date question’s range', () => {
  it('is set, checked and kept; a question that stops being a date loses it', async () => {
    const { owner, form, set } = await arrivalForm();
    const saved = await set({ dateRange: RANGE });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<Form>().textField[0]?.dateRange).toEqual(RANGE);
    for (const bad of [
      { earliest: '2026-12-31', latest: '2026-12-01' },
      { earliest: '2026-02-30' },
      { latest: 'tomorrow' },
    ]) {
      expect((await set({ dateRange: bad })).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await set({ type: 'text', dateRange: RANGE })).statusCode).toBe(400);

    const exported = (await as(owner).get(`/api/exportForm/${form._id}`)).json();
    const copy = (await as(owner).post('/api/importForm', exported)).json<Form>();
    expect(copy.textField[0]?.dateRange).toEqual(RANGE);

    const text = await set({ type: 'text' });
    expect(text.json<Form>().textField[0]).not.toHaveProperty('dateRange');
    const back = await set({ type: 'date' });
    expect(back.json<Form>().textField[0]).not.toHaveProperty('dateRange');
  });

  it('takes exactly the days within it, generated around both ends', async () => {
    const { form, id, set } = await arrivalForm();
    await set({ dateRange: RANGE });
    const start = Date.parse('2026-11-25T00:00:00Z');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 45 }), async (offset) => {
        const day = new Date(start + offset * 86_400_000).toISOString().slice(0, 10);
        const res = await submit(form, id, day);
        const within = day >= RANGE.earliest && day <= RANGE.latest;
        expect(res.statusCode, day).toBe(within ? 200 : 400);
        if (!within)
          expect(res.json().error.message).toBe(
            day < RANGE.earliest
              ? 'Arrival: Choose 2026-12-01 or later'
              : 'Arrival: Choose 2026-12-31 or earlier',
          );
      }),
      { numRuns: 30 },
    );
    expect((await submit(form, id, '2026-12-32')).json().error.message).toBe('Arrival: Enter a real date');
  });
});
