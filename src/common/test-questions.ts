// Choice questions for tests on both sides, written as the stored form has them: each option with its own id.

/** A choice question `_id` named `name`, whose options are `options` (option id → the option's text), in order. */
export const choiceQuestion = (
  _id: string,
  name: string,
  required: boolean,
  options: Record<string, string>,
) => ({
  _id,
  name,
  required,
  options: Object.entries(options).map(([id, value]) => ({ _id: id, value })),
});
