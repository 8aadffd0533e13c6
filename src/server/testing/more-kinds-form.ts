// A form with one question of every kind beyond the product's five (issue 39), made by the owner's add call, for the
// tests of those kinds: ids 6 to 12, each with its settings.
import type { AddFieldBody, Form, MoreField } from '#common/forms.ts';
import { ownerRequests } from './owner-requests.ts';
import { createForm, signUpOwner, type TestApp } from './test-app.ts';

export const MORE_KIND_QUESTIONS: AddFieldBody[] = [
  { id: 6, name: 'Guests', required: true, settings: { min: 1, max: 12, decimals: false, unit: 'people' } },
  { id: 7, name: 'Your stay', required: false, settings: { max: 5, style: 'stars' } },
  {
    id: 8,
    name: 'How likely are you to recommend us?',
    required: false,
    settings: { from: 0, to: 10, fromLabel: 'Not at all', toLabel: 'Very', nps: true },
  },
  {
    id: 9,
    name: 'Before you answer',
    settings: { text: 'Read **this** first: [terms](https://example.org/t)' },
  },
  { id: 10, name: 'Terms', required: true, settings: { text: 'I agree to the house rules' } },
  { id: 11, name: 'Arrival time', required: false },
  { id: 12, name: 'Your website', required: false },
];

/** An owner and their form with every kind above, in that order; `more(name)` finds a question by its name. */
export async function moreKindsForm(t: TestApp) {
  const as = ownerRequests(t);
  const owner = await signUpOwner(t);
  let form: Form = await createForm(t, owner.token);
  for (const question of MORE_KIND_QUESTIONS) {
    const res = await as(owner).post(`/api/text/${form._id}`, question);
    if (res.statusCode !== 200) throw new Error(`adding ${question.name}: ${res.body}`);
    form = res.json<Form>();
  }
  const more = (name: string): MoreField => {
    const field = form.moreField.find((f) => f.name === name);
    if (!field) throw new Error(`no question ${name}`);
    return field;
  };
  return { owner, form, more };
}
