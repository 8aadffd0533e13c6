// The two addresses a customer's answers go to, apart from the calls that use them: the page (public-forms.ts) and
// the device queue, which the service worker also runs (fill/offline/send-queued.ts), build them alike.

/** POST the answers of one submission (docs/api.md "Customers"). */
export const submissionUrl = (ownerId: string) => `/api/forms/${encodeURIComponent(ownerId)}`;

/** POST one file for a form's file question, as the multipart field `file`. */
export const uploadUrl = (formId: string) => `/api/profile?formId=${encodeURIComponent(formId)}`;
