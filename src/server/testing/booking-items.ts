// A form with pages and conditions for the tests of branching: who is coming; a page about the room only for those
// who need one; a last page whose question is asked only of those who gave their nights.
import type { FormItem } from '#common/logic/items.ts';
import { choiceQuestion } from '#common/test-questions.ts';

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
