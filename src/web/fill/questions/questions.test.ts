import { describe, expect, it } from 'vitest';
import { orderedQuestions } from '#common/question-order.ts';
import { answersSchemaFor } from '#common/submissions.ts';
import { choiceQuestion } from '#common/test-questions.ts';
import { testForm } from '../test-form.ts';
import { questionOfMessage, submissionBody } from './questions.ts';
import { validateAnswers } from './validate-answers.ts';

const form = testForm({
  color: '#ADFFBA',
  border: '#25D942',
  textField: [
    { _id: 't1', name: 'Phone', type: 'tel', required: true },
    { _id: 't2', name: 'Phone (work)', type: 'tel', required: false },
  ],
  selectField: [{ _id: 's1', name: 'Travellers', required: true, options: [{ _id: 'o1', value: '2' }] }],
  checkField: [choiceQuestion('c1', 'Extras', false, { o2: 'Meal', o3: 'Seat' })],
  fileField: [{ _id: 'f1', name: 'Passport', type: 'file', required: true }],
  fieldOrder: [
    { _id: 'f1', kind: 'file' },
    { _id: 's1', kind: 'select' },
    { _id: 't1', kind: 'text' },
    { _id: 'c1', kind: 'check' },
  ],
});

describe('the customer page answers', () => {
  it('lists questions in fieldOrder and keeps one the order forgot at the end', () => {
    expect(orderedQuestions(form).map((q) => q.field._id)).toEqual(['f1', 's1', 't1', 'c1', 't2']);
  });

  it('checks step one without the file questions, with the messages the server would give', () => {
    expect(validateAnswers(form, { t1: ' ', t2: '', s1: '' })).toEqual({
      t1: 'This question is required',
      s1: 'Choose an option',
    });
    expect(validateAnswers(form, { t1: '+91 98765 43210', s1: '2', c1: [] })).toEqual({});
    expect(validateAnswers(form, { t1: '+91 98765 43210', s1: '2' }, {}, true)).toEqual({
      f1: 'Upload a file',
    });
  });

  it('builds a body keyed by question id that the server schema accepts', () => {
    const file = { deleteId: 'x'.repeat(43), value: '/files/1', originalName: 'p.png', name: 'old' };
    const body = submissionBody(form, { t1: ' 12345 ', t2: '', s1: '2', c1: ['Meal'] }, { f1: [file] }, '');
    expect(body).toMatchObject({
      formStructureId: form._id,
      textObject: { t1: '12345' },
      selectedValues: { s1: '2' },
      selectedCheckboxes: [{ name: 'c1', values: ['Meal'] }],
      fileObject: { f1: [{ ...file, name: 'Passport' }] },
      website: '',
    });
    const answers = { ...body.textObject, ...body.selectedValues, c1: ['Meal'], ...body.fileObject };
    expect(answersSchemaFor(form).safeParse(answers).success).toBe(true);
  });

  it('finds the question a 400 names, preferring the longest name', () => {
    expect(questionOfMessage(form, 'Phone (work): Enter a valid phone number')).toMatchObject({
      question: { field: { _id: 't2' } },
      detail: 'Enter a valid phone number',
    });
    expect(questionOfMessage(form, 'Passport: This file was not uploaded for this form')?.question.kind).toBe(
      'file',
    );
    expect(questionOfMessage(form, 'ownerId: This link does not match the form')).toBeNull();
  });
});
