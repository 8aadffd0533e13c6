// A form with pages and conditions for the tests of branching: who is coming; a page about the room only for those
// who need one; a last page whose question is asked only of those who gave their nights.
import { expect } from 'vitest';
import type { Form } from '#common/forms.ts';
import type { FormItem } from '#common/logic/items.ts';
import { choiceQuestion } from '#common/test-questions.ts';
import { ownerRequests } from './owner-requests.ts';
import { createForm, signUpOwner, type TestApp } from './test-app.ts';

/** The items as an owner's editor sends them, new items named by the ids the conditions use. */
export const BOOKING_ITEMS: FormItem[] = [
  { kind: 'text', _id: 'name', name: 'Your name', type: 'text', required: true },
  { kind: 'radio', ...choiceQuestion('stay', 'Do you need a room?', true, { y: 'Yes', n: 'No' }) },
  { kind: 'page', _id: 'room', title: 'Your room', condition: { question: 'stay', op: 'is', value: 'Yes' } },
  { kind: 'text', _id: 'nights', name: 'How many nights?', type: 'text', required: true },
  { kind: 'page', _id: 'end', title: 'Last words' },
  {
    kind: 'text',
    _id: 'diet',
    name: 'Any diet?',
    type: 'text',
    required: true,
    condition: { question: 'nights', op: 'answered' },
  },
];

/** A new owner's form saved with BOOKING_ITEMS; `id(name)` is the id the server gave the question of that name. */
export async function bookingForm(t: TestApp) {
  const owner = await signUpOwner(t);
  const blank = await createForm(t, owner.token);
  const res = await ownerRequests(t)(owner).put(`/api/v1/form/${blank._id}/items`, {
    items: BOOKING_ITEMS,
    version: blank.version,
  });
  expect(res.statusCode, res.body).toBe(200);
  const form = res.json<Form>();
  const id = (name: string) => form.items.find((i) => 'name' in i && i.name === name)?._id ?? '';
  const pages = form.items.filter((i) => i.kind === 'page').map((i) => i._id);
  return { owner, form, id, pages };
}
