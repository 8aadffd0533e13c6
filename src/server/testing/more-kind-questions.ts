// One question of every kind beyond the product's five (issue 39), as the owner's add call takes them (ids 6 to 13,
// each with its settings): what the server tests and the browser journeys of those kinds build their form from.
import type { AddFieldBody } from '#common/forms.ts';

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
  {
    id: 13,
    name: 'Rate our service',
    required: false,
    settings: { rows: ['Room', 'Breakfast'], columns: ['Poor', 'Fair', 'Good'] },
  },
];
