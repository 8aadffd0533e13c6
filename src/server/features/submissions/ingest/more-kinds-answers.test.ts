// Answers to the kinds beyond the product's five (issue 39): each kind's answer accepted or refused on the server
// whatever the page allowed, generated around every bound; stored as text (a number written plainly), shown to the
// owner and in the CSV, and counted by Results as a rebuild from the stored rows counts them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { FormResults, NumberResult, StepResult } from '#common/results.ts';
import type { Submission } from '#common/submissions.ts';
import { moreKindsForm } from '../../../testing/more-kinds-form.ts';
import { ownerRequests } from '../../../testing/owner-requests.ts';
import { setUpTestApp } from '../../../testing/test-app.ts';

const t = setUpTestApp();
const as = ownerRequests(t);

const submit = (form: Form, texts: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/forms/${form.ownerIdAsStructureId}`,
    payload: { formStructureId: form._id, textObject: texts },
  });

async function setUp() {
  const made = await moreKindsForm(t);
  const id = (name: string) => made.more(name)._id;
  /** What a complete, valid response sends, with `change` laid over it (an empty value leaves one out). */
  const answers = (change: Record<string, string> = {}) => {
    const all: Record<string, string> = {
      [id('Guests')]: '3',
      [id('Terms')]: 'yes',
      ...Object.fromEntries(Object.entries(change).map(([name, v]) => [id(name), v])),
    };
    return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== ''));
  };
  return { ...made, id, answers };
}

describe('answers to the kinds beyond the first five', () => {
  it('are stored as text, a number written plainly, and shown to the owner and in the CSV', async () => {
    const { owner, form, answers } = await setUp();
    const res = await submit(
      form,
      answers({
        Guests: ' 4,0 ',
        'Your stay': '4',
        'How likely are you to recommend us?': '9',
        'Arrival time': '14:30',
        'Your website': 'https://example.org/me',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const view = (await as(owner).get(`/api/forms/${res.json<{ _id: string }>()._id}`)).json<Submission>();
    expect(view.answers.map((a) => [a.name, a.kind, a.value])).toEqual([
      ['Guests', 'number', '4'],
      ['Your stay', 'rating', '4'],
      ['How likely are you to recommend us?', 'scale', '9'],
      ['Terms', 'consent', 'yes'],
      ['Arrival time', 'time', '14:30'],
      ['Your website', 'url', 'https://example.org/me'],
    ]);
    // A rating says how high it goes, so the owner reads "4 of 5"; no other answer does.
    expect(view.answers.filter((a) => a.outOf !== undefined).map((a) => [a.name, a.outOf])).toEqual([
      ['Your stay', 5],
    ]);
    expect(view.textObject).toMatchObject({ Guests: '4', 'Arrival time': '14:30' });
    const csv = await as(owner).get(`/api/formSubmissions/${form._id}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Your stay');
    expect(csv.body).toContain('https://example.org/me');
  });

  it('hold each kind’s rules on the server, naming the question, and store nothing refused', async () => {
    const { form, answers } = await setUp();
    const refused: [Record<string, string>, string][] = [
      [answers({ Guests: '' }), 'Guests: This question is required'],
      [answers({ Guests: '2.5' }), 'Guests: Enter a whole number'],
      [answers({ Guests: '13' }), 'Guests: Enter 12 or less'],
      [answers({ Guests: '1e3' }), 'Guests: Enter a number'],
      [answers({ Terms: '' }), 'Terms: Tick the box to agree'],
      [answers({ Terms: 'no' }), 'Terms: Tick the box to agree'],
      [answers({ 'Your stay': '6' }), 'Your stay: Choose a number from 1 to 5'],
      [answers({ 'Arrival time': '24:00' }), 'Arrival time: Enter a time such as 14:30'],
      [answers({ 'Your website': 'javascript:alert(1)' }), 'Your website: Enter a web address'],
      [answers({ 'Before you answer': 'hello' }), 'Before you answer: This is a statement'],
    ];
    for (const [body, message] of refused) {
      const res = await submit(form, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const rows = await t.app.db.query('select id from submissions where form_id = $1', [form._id]);
    expect(rows).toEqual([]);
  });

  it('take a number, a rating and a scale exactly within their bounds (generated around them)', async () => {
    const { form, answers } = await setUp();
    const around = (from: number, to: number) => fc.integer({ min: from - 3, max: to + 3 });
    await fc.assert(
      fc.asyncProperty(
        around(1, 12),
        fc.constantFrom('', '.5', ',0'),
        around(1, 5),
        around(0, 10),
        async (guests, fraction, stay, likely) => {
          const res = await submit(
            form,
            answers({
              Guests: `${guests}${fraction}`,
              'Your stay': String(stay),
              'How likely are you to recommend us?': String(likely),
            }),
          );
          const fits =
            guests >= 1 && guests <= 12 && fraction !== '.5' && stay >= 1 && stay <= 5 && likely >= 0;
          expect(res.statusCode, JSON.stringify({ guests, fraction, stay, likely })).toBe(
            fits && likely <= 10 ? 200 : 400,
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('are counted by Results: the steps, the mean, the NPS and the numbers, as a rebuild counts them', async () => {
    const { owner, form, more, answers } = await setUp();
    const likely = [10, 9, 9, 8, 7, 6, 3, 10];
    for (const [i, score] of likely.entries())
      expect(
        (
          await submit(
            form,
            answers({
              Guests: String(i + 1),
              'Your stay': String((i % 5) + 1),
              'How likely are you to recommend us?': String(score),
              'Arrival time': i === likely.length - 1 ? '10:00' : '',
            }),
          )
        ).statusCode,
      ).toBe(200);
    const read = async () =>
      (await as(owner).get(`/api/formResults/${form._id}`)).json<FormResults>().questions;
    const results = await read();
    const of = (name: string) => results.find((q) => q.name === name);
    const nps = of('How likely are you to recommend us?') as StepResult;
    // 4 promoters (9–10), 2 passives (7–8), 2 detractors (0–6) of 8: (4 − 2) ÷ 8 = 25.
    expect(nps.nps).toEqual({ score: 25, promoters: 4, passives: 2, detractors: 2 });
    expect(nps.steps.find((s) => s.value === 9)).toEqual({ value: 9, count: 2, percent: 25 });
    expect(nps.mean).toBeCloseTo(likely.reduce((a, b) => a + b) / likely.length);
    const stay = of('Your stay') as StepResult;
    expect(stay.steps.map((s) => s.count)).toEqual([2, 2, 2, 1, 1]);
    expect(stay.nps).toBeNull();
    const guests = of('Guests') as NumberResult;
    expect(guests.summary).toMatchObject({ count: 8, min: 1, max: 8, mean: 4.5, median: 4.5 });
    // Whole numbers in bins of whole numbers: one each here.
    expect(guests.summary?.histogram.map((b) => [b.from, b.to, b.count])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, n, 1]),
    );
    // A time is shown as text answers are: among the latest.
    expect(of('Arrival time')).toMatchObject({ kind: 'time', answered: 1, latest: [{ value: '10:00' }] });
    expect(of(more('Before you answer').name)).toBeUndefined();
    expect(of('Terms')).toMatchObject({ kind: 'consent', answered: 8 });
    await t.app.db.query('select rebuild_form_results($1)', [form._id]);
    expect(await read()).toEqual(results);
  });
});
