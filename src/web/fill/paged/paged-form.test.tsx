import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicForm } from '#common/forms.ts';
import { arraysOf, type FormItem } from '#common/logic/items.ts';
import type { SubmissionBody } from '#common/submissions.ts';
import { choiceQuestion } from '#common/test-questions.ts';
import { CustomerApp } from '../page/customer-app.tsx';
import { loadScreen } from '../page/customer-screens.ts';
import { KEYS } from '../storage/fill-storage.ts';
import { testForm } from '../test-form.ts';

/**
 * A branching form filled with scripts on: one page at a time, only the pages and questions that apply, Back and
 * Next, the browser's Back, and only the answers that apply sent.
 */

const items: FormItem[] = [
  { kind: 'page', _id: 'p1', title: 'About you' },
  { kind: 'text', _id: 't1', name: 'Full name', type: 'text', required: true },
  { kind: 'radio', ...choiceQuestion('r1', 'Need a room?', true, { o1: 'Yes', o2: 'No' }) },
  { kind: 'page', _id: 'p2', title: 'Accommodation', condition: { question: 'r1', op: 'is', value: 'Yes' } },
  { kind: 'text', _id: 't2', name: 'Nights', type: 'text', required: true },
  { kind: 'page', _id: 'p3', title: 'Anything else' },
  { kind: 'text', _id: 't3', name: 'Comments', type: 'textarea', required: false },
];
const form: PublicForm = testForm({ ...arraysOf(items), items, version: 7 });
const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';

/** The server: the form, and the submit answered with `submitted` (a stored response unless told otherwise). */
function fakeServer(submitted: () => Response = () => Response.json({ _id: 'response-1' })) {
  const sent: SubmissionBody[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((url, init) => {
    if (!String(url).startsWith('/api/forms/')) return Promise.resolve(Response.json(form));
    sent.push(JSON.parse(String(init?.body)) as SubmissionBody);
    return Promise.resolve(submitted());
  });
  return sent;
}

/** Opens the customer's link (the server put the form in the page), or reloads the address given. */
async function open(address = `/customer/${form._id}/${OWNER}`) {
  if (address.startsWith('/customer/')) {
    const data = Object.assign(document.createElement('script'), {
      type: 'application/json',
      id: 'fill-form',
    });
    data.textContent = JSON.stringify(form);
    document.body.append(data);
  }
  history.replaceState(null, '', address);
  const first = await loadScreen(location.pathname);
  if (!first) throw new Error(`no screen for ${address}`);
  render(<CustomerApp first={first} />);
  if (first.address) history.replaceState(null, '', first.address);
  return userEvent.setup();
}

/** The focus moves once the new page is drawn (an effect after it): wait for it rather than read it at once. */
const hasFocus = (element: HTMLElement) => waitFor(() => expect(element).toHaveFocus());
const progress = () => screen.getByText(/^Page \d+ of \d+$/).textContent;
const browserBack = () =>
  act(async () => {
    history.back();
    await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
  });

beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

describe('a form with page breaks, filled with scripts on', () => {
  it('asks the accommodation page only of those who need a room, with Back, Next and the browser Back', async () => {
    const sent = fakeServer();
    const user = await open();
    expect(location.pathname).toBe('/preview');
    expect(screen.getByRole('heading', { level: 2, name: 'About you' })).toBeVisible();
    // The room page applies only once "Yes" is chosen: the count is of the pages that apply so far.
    expect(progress()).toBe('Page 1 of 2');
    expect(screen.queryByRole('button', { name: 'Back' })).toBeNull();
    expect(screen.queryByLabelText(/Nights/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('2 answers need your attention.')).toBeVisible();
    await hasFocus(screen.getByLabelText(/Full name/));
    expect(progress()).toBe('Page 1 of 2');
    await user.type(screen.getByLabelText(/Full name/), 'Priya');
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    expect(progress()).toBe('Page 1 of 3');
    await user.click(screen.getByRole('button', { name: 'Next' }));

    const accommodation = await screen.findByRole('heading', { level: 2, name: 'Accommodation' });
    await hasFocus(accommodation);
    expect(`${location.pathname}${location.search}`).toBe('/preview?page=p2');
    expect(progress()).toBe('Page 2 of 3');
    expect(screen.queryByLabelText(/Full name/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This question is required')).toBeVisible();
    await hasFocus(screen.getByLabelText(/Nights/));
    await user.type(screen.getByLabelText(/Nights/), '2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await hasFocus(await screen.findByRole('heading', { level: 2, name: 'Anything else' }));
    expect(progress()).toBe('Page 3 of 3');
    expect(screen.getByRole('button', { name: 'Submit' })).toBeVisible();

    // The browser's Back, then the page's: back to the first page, each answer where it was left.
    await browserBack();
    await hasFocus(await screen.findByRole('heading', { level: 2, name: 'Accommodation' }));
    expect(screen.getByLabelText(/Nights/)).toHaveValue('2');
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await hasFocus(await screen.findByRole('heading', { level: 2, name: 'About you' }));
    expect(location.search).toBe('');
    expect(screen.getByLabelText(/Full name/)).toHaveValue('Priya');

    // No room after all: the accommodation page drops out, and its answer is kept on the device but never sent.
    await user.click(screen.getByRole('radio', { name: 'No' }));
    expect(progress()).toBe('Page 1 of 2');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Anything else' })).toBeVisible();
    expect(progress()).toBe('Page 2 of 2');
    await user.type(screen.getByLabelText(/Comments/), 'Vegetarian');
    await user.click(screen.getByRole('button', { name: 'Submit' }));

    expect(await screen.findByRole('heading', { name: 'Submitted successfully' })).toBeVisible();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      textObject: { t1: 'Priya', t3: 'Vegetarian' },
      selectedRadio: { r1: 'No' },
      version: 7,
    });
    expect(sent[0]?.textObject).not.toHaveProperty('t2');
  });

  it('sends the room page and its answer on the branch that reaches it', async () => {
    const sent = fakeServer();
    const user = await open();
    await user.type(screen.getByLabelText(/Full name/), 'Sam');
    await user.click(screen.getByRole('radio', { name: 'Yes' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(await screen.findByLabelText(/Nights/), '3');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { level: 2, name: 'Anything else' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    await screen.findByRole('heading', { name: 'Submitted successfully' });
    expect(sent).toEqual([
      expect.objectContaining({
        textObject: { t1: 'Sam', t2: '3' },
        selectedRadio: { r1: 'Yes' },
        version: 7,
      }),
    ]);
  });

  it('opens the page in the address on a reload, with the answers kept on the device', async () => {
    fakeServer();
    localStorage.setItem(KEYS.formId, form._id);
    localStorage.setItem(KEYS.ownerId, OWNER);
    localStorage.setItem(KEYS.form, JSON.stringify(form));
    const draft = { formId: form._id, values: { t1: 'Priya', r1: 'Yes', t2: '2' }, files: {}, website: '' };
    localStorage.setItem(KEYS.draft, JSON.stringify({ ...draft, idempotencyKey: null }));
    const user = await open('/preview?page=p2');
    expect(screen.getByRole('heading', { level: 2, name: 'Accommodation' })).toBeVisible();
    expect(progress()).toBe('Page 2 of 3');
    expect(screen.getByLabelText(/Nights/)).toHaveValue('2');
    // Reached by a reload, not by Next: Back opens the page before it all the same.
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await hasFocus(await screen.findByRole('heading', { level: 2, name: 'About you' }));
  });

  it('opens the first page, and says so in the address, when the answers no longer reach the one in it', async () => {
    fakeServer();
    localStorage.setItem(KEYS.formId, form._id);
    localStorage.setItem(KEYS.ownerId, OWNER);
    localStorage.setItem(KEYS.form, JSON.stringify(form));
    const draft = { formId: form._id, values: { t1: 'Priya', r1: 'No' }, files: {}, website: '' };
    localStorage.setItem(KEYS.draft, JSON.stringify({ ...draft, idempotencyKey: null }));
    await open('/preview?page=p2');
    expect(screen.getByRole('heading', { level: 2, name: 'About you' })).toBeVisible();
    await waitFor(() => expect(`${location.pathname}${location.search}`).toBe('/preview?page=p1'));
  });

  it("takes the customer back to the page of the question the server's refusal names, with its message", async () => {
    const refusal = { error: { code: 'VALIDATION_FAILED', message: 'Full name: Keep it shorter' } };
    fakeServer(() => Response.json(refusal, { status: 400 }));
    const user = await open();
    await user.type(screen.getByLabelText(/Full name/), 'Priya');
    await user.click(screen.getByRole('radio', { name: 'No' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { level: 2, name: 'Anything else' });
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Keep it shorter')).toBeVisible();
    expect(screen.getByRole('heading', { level: 2, name: 'About you' })).toBeVisible();
    await hasFocus(screen.getByLabelText(/Full name/));

    // Fixed and moved on: the browser's Back to that page does not bring the message back.
    await user.clear(screen.getByLabelText(/Full name/));
    await user.type(screen.getByLabelText(/Full name/), 'Pri');
    expect(screen.queryByText('Keep it shorter')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByRole('heading', { level: 2, name: 'Anything else' });
    await browserBack();
    await hasFocus(await screen.findByRole('heading', { level: 2, name: 'About you' }));
    expect(screen.queryByText('Keep it shorter')).toBeNull();
  });
});
