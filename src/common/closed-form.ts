// What a closed form's page shows of the form, on the server-drawn page and in the React page alike.
import type { PublicForm } from './forms.ts';

/** The id of the element holding a closed form's look in its server-drawn page, for the React page to draw the same. */
export const CLOSED_LOOK_ID = 'fill-closed-form';

/** What a closed form's page shows of it: which form it is, on its colours, and nothing of its questions. */
export type ClosedFormLook = Pick<PublicForm, '_id' | 'formTitle' | 'color' | 'border'>;
export const closedLookOf = ({ _id, formTitle, color, border }: ClosedFormLook): ClosedFormLook => ({
  _id,
  formTitle,
  color,
  border,
});
