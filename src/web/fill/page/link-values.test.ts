// The form link's query string on the React page (issue 39): prefills where the customer has not answered, hidden
// fields kept in the draft and sent with the answers, and nothing the form does not declare.
import { describe, expect, it } from 'vitest';
import { choiceQuestion } from '#common/test-questions.ts';
import { submissionBody } from '../questions/questions.ts';
import { emptyDraft } from '../storage/fill-storage.ts';
import { testForm } from '../test-form.ts';
import { linkValuesOf, withLinkValues } from './link-values.ts';

const form = testForm({
  textField: [
    { _id: 'name', name: 'Name', type: 'text', required: false },
    { _id: 'city', name: 'City', type: 'text', required: false },
  ],
  checkField: [choiceQuestion('extras', 'Extras', false, { w: 'Wifi', p: 'Parking', g: 'Gym' })],
  fieldOrder: [
    { _id: 'name', kind: 'text' },
    { _id: 'city', kind: 'text' },
    { _id: 'extras', kind: 'check' },
  ],
  hiddenFields: ['ref'],
});

describe('a form link’s values on the React page', () => {
  it('prefill only what the customer has not answered, and keep the declared hidden fields', () => {
    const link = linkValuesOf(
      form,
      '?q_name=Asha&q_city=Pune&q_extras=Wifi,%20Gym&ref=crm-42&utm_source=mail',
    );
    expect(link).toEqual({
      hidden: { ref: 'crm-42' },
      prefill: { name: 'Asha', city: 'Pune', extras: 'Wifi, Gym' },
    });
    const draft = withLinkValues(form, { ...emptyDraft(form._id), values: { city: 'Goa' } }, link);
    expect(draft.values).toEqual({ name: 'Asha', city: 'Goa', extras: ['Wifi', 'Gym'] });
    expect(draft.hidden).toEqual({ ref: 'crm-42' });
    // A link that fills nothing leaves the draft as it was.
    const plain = emptyDraft(form._id);
    expect(withLinkValues(form, plain, linkValuesOf(form, '?utm_source=mail'))).toBe(plain);
  });

  it('sends the hidden fields the form declares with the answers, and no others', () => {
    const body = submissionBody(form, { name: 'Asha' }, {}, '', { ref: 'crm-42', gone: 'x' });
    expect(body.hidden).toEqual({ ref: 'crm-42' });
    expect(submissionBody(form, { name: 'Asha' }, {}, '')).not.toHaveProperty('hidden');
  });
});
