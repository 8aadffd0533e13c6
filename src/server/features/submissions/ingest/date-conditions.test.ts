// Conditions that compare a date question's answer with a day (issue 39): on or after (`atLeast`), on or before
// (`atMost`), checked when the form is saved (a day, YYYY-MM-DD, only on a date question) and held by the server for
// every submit, generated around the day.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { createForm, setUpTestApp, signUpOwner } from '../../../testing/test-app.ts';
import { NOT_APPLYING } from './answers.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

/** Arrival on page 1; page 2, shown only for arrivals on or after 1 December 2026, asks about the winter festival. */
async function setUp(op = 'atLeast', value = '2026-12-01') {
  const owner = await signUpOwner(t);
  const made = await createForm(t, owner.token);
  const items = [
    { kind: 'text', _id: 'arrival', name: 'Arrival', type: 'date', required: true },
    { kind: 'page', _id: 'p2', title: 'Winter', condition: { question: 'arrival', op, value } },
    { kind: 'text', _id: 'festival', name: 'Joining the festival?', type: 'text', required: true },
  ];
  const res = await as(owner).put(`/api/v1/form/${made._id}/items`, { items, version: made.version });
  return { owner, made, res, form: res.json<Form>() };
}

describe('a condition on a date question', () => {
  it('is refused when it compares the date with something not a day, or a number with a day', async () => {
    const { res } = await setUp('atLeast', 'next week');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('compares “Arrival” with something not a day (YYYY-MM-DD)');
    const owner = await signUpOwner(t);
    const made = await createForm(t, owner.token);
    const onNumber = await as(owner).put(`/api/v1/form/${made._id}/items`, {
      version: made.version,
      items: [
        { kind: 'number', _id: 'n', name: 'Nights', required: true, settings: { decimals: false } },
        {
          kind: 'page',
          _id: 'p2',
          title: 'More',
          condition: { question: 'n', op: 'atLeast', value: '2026-12-01' },
        },
      ],
    });
    expect(onNumber.statusCode).toBe(400);
    expect(onNumber.body).toContain('with something not a number');
  });

  it('shows a page on or after its day, and the server holds it for every arrival (generated)', async () => {
    const { res, form } = await setUp();
    expect(res.statusCode, res.body).toBe(200);
    const [arrival, festival] = [form.textField[0]?._id ?? '', form.textField[1]?._id ?? ''];
    const day = fc
      .integer({ min: -3, max: 3 })
      .map((d) => new Date(Date.UTC(2026, 11, 1 + d)).toISOString().slice(0, 10));
    await fc.assert(
      fc.asyncProperty(day, fc.boolean(), async (arrives, answersWinter) => {
        const res = await t.app.inject({
          method: 'POST',
          url: `/api/forms/${form.ownerIdAsStructureId}`,
          payload: {
            formStructureId: form._id,
            textObject: { [arrival]: arrives, ...(answersWinter ? { [festival]: 'Yes' } : {}) },
          },
        });
        const winter = arrives >= '2026-12-01';
        // Page 2 applies from 1 December: its required question must be answered then, and left alone before.
        expect(res.statusCode, `${arrives} ${answersWinter}`).toBe(winter === answersWinter ? 200 : 400);
        if (!winter && answersWinter) expect(res.body).toContain(NOT_APPLYING);
        if (winter && !answersWinter) expect(res.body).toContain('This question is required');
      }),
      { numRuns: 30 },
    );
  });

  it('compares on or before its day with atMost', async () => {
    const { form } = await setUp('atMost', '2026-12-01');
    const [arrival, festival] = [form.textField[0]?._id ?? '', form.textField[1]?._id ?? ''];
    const send = (texts: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/forms/${form.ownerIdAsStructureId}`,
        payload: { formStructureId: form._id, textObject: texts },
      });
    expect((await send({ [arrival]: '2026-12-01', [festival]: 'Yes' })).statusCode).toBe(200);
    expect((await send({ [arrival]: '2026-12-02' })).statusCode).toBe(200);
    expect((await send({ [arrival]: '2026-12-02', [festival]: 'Yes' })).statusCode).toBe(400);
  });
});
