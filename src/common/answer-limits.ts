// The customer's page needs these without zod (docs/decisions/012-customer-entry.md), so they live apart from the
// schemas in submissions.ts.

/** Accepted upload types (docs/api.md): the picker's accept list and the content checks agree on these. */
export const UPLOAD_TYPES = [
  { mime: 'image/jpeg', extensions: ['.jpg', '.jpeg'] },
  { mime: 'image/png', extensions: ['.png'] },
  { mime: 'application/pdf', extensions: ['.pdf'] },
] as const;
export const UPLOAD_ACCEPT = '.jpg,.jpeg,.png,.pdf';
export const TEXT_ANSWER_MAX = 1000;
export const LONG_TEXT_ANSWER_MAX = 10_000;
export const SUBMIT_SUCCESS_MESSAGE = 'Submitted successfully';
/** A closed form's answer when its owner set no message of their own (issue 12). */
export const FORM_CLOSED_MESSAGE = 'This form is no longer accepting responses';
/** How the answer for a form that is not open yet begins; the page titles it apart from a closed one. */
export const NOT_OPEN_YET_PREFIX = 'This form is not open yet.';
/** The answer to a question the form does not have (any more: the owner may have deleted it since the page loaded). */
export const NOT_ON_FORM = 'This question is not on the form';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** A field no person sees or fills; bots that fill every input give themselves away (docs/decisions). */
export const HONEYPOT_FIELD = 'website';
