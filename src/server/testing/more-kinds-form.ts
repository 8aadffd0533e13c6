// A form with one question of every kind beyond the product's five (issue 39), made by the owner's add call, for the
// tests of those kinds.
import type { Form, MoreField } from '#common/forms.ts';
import { MORE_KIND_QUESTIONS } from './more-kind-questions.ts';
import { ownerRequests } from './owner-requests.ts';
import { createForm, signUpOwner, type TestApp } from './test-app.ts';

/** An owner and their form with every kind above, in that order; `more(name)` finds a question by its name. */
export async function moreKindsForm(t: TestApp) {
  const as = ownerRequests(t);
  const owner = await signUpOwner(t);
  let form: Form = await createForm(t, owner.token);
  for (const question of MORE_KIND_QUESTIONS) {
    const res = await as(owner).post(`/api/text/${form._id}`, question);
    if (res.statusCode !== 200) throw new Error(`adding ${question.name}: ${res.body}`);
    form = res.json<Form>();
  }
  const more = (name: string): MoreField => {
    const field = form.moreField.find((f) => f.name === name);
    if (!field) throw new Error(`no question ${name}`);
    return field;
  };
  return { owner, form, more };
}
