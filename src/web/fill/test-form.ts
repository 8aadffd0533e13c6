// Test support: a customer's form as the server gives it, for the fill tests to build theirs from.
import { noQuestions, type PublicForm } from '#common/forms.ts';

/** A form with no questions, white with a blue border, and whatever `parts` sets. */
export const testForm = (parts: Partial<PublicForm> = {}): PublicForm => ({
  _id: '6f1c2b8e-4a1d-4c55-9a55-2d4f3f0e9c01',
  formTitle: 'Trip',
  description: '',
  color: '#FFFFFF',
  border: '#1A73E8',
  Date: '1/1/2027, 10:00:00 AM',
  ...noQuestions(),
  thankYouMessage: null,
  redirectUrl: null,
  hiddenFields: [],
  ...parts,
});
