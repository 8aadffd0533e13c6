import 'fake-indexeddb/auto';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicForm } from '#common/forms.ts';
import { KEYS } from '../storage/fill-storage.ts';
import { FORM_CHANGED } from '../submit/use-submit.ts';
import { testForm } from '../test-form.ts';
import { CustomerApp } from './customer-app.tsx';
import { loadScreen } from './customer-screens.ts';

const form = testForm({
  description: 'Where to?',
  textField: [{ _id: 't1', name: 'Full name', type: 'text', required: true }],
  fileField: [{ _id: 'f1', name: 'Passport', type: 'file', required: false }],
  fieldOrder: [
    { _id: 't1', kind: 'text' },
    { _id: 'f1', kind: 'file' },
  ],
});
const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';

/** Opens the customer link the way customer.html does: the server put the form in the page. */
async function openLink(page: PublicForm = form) {
  const data = document.createElement('script');
  data.type = 'application/json';
  data.id = 'fill-form';
  data.textContent = JSON.stringify(page);
  document.body.append(data);
  history.replaceState(null, '', `/customer/${page._id}/${OWNER}`);
  const first = await loadScreen(location.pathname);
  if (!first) throw new Error('no screen for the customer link');
  // The link's screen is /preview's; fill/page/take-over.tsx puts that address in the bar when it shows the screen.
  expect(location.pathname).toBe(`/customer/${page._id}/${OWNER}`);
  render(<CustomerApp first={first} />);
  if (first.address) history.replaceState(null, '', first.address);
}

// jsdom has no layout: focusing the first wrong answer scrolls it into view.
beforeEach(() => {
  Element.prototype.scrollIntoView = vi.fn();
});

describe('the customer pages (customer.html)', () => {
  it('uses the form in the page, continues at /preview, and moves to /fileUpload and back keeping answers', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json(form));
    await openLink();
    expect(location.pathname).toBe('/preview');
    expect(screen.getByRole('heading', { name: 'Trip' })).toBeVisible();
    expect(screen.getByText('Where to?')).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById('fill-form')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This question is required')).toBeVisible();
    await user.type(screen.getByLabelText(/Full name/), 'Priya');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/Step 2 of 2/)).toBeVisible();
    expect(location.pathname).toBe('/fileUpload');
    // Step 2 names the form (still the page's one h1) but leaves step 1's description there, files first.
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Trip']);
    expect(screen.queryByText('Where to?')).toBeNull();

    await user.click(screen.getByRole('link', { name: 'Back' }));
    expect(await screen.findByText(/Step 1 of 2/)).toBeVisible();
    expect(location.pathname).toBe('/preview');
    expect(screen.getByLabelText(/Full name/)).toHaveValue('Priya');
    // Back from the files step leaves the focus at the step's heading, not on the page's body.
    expect(screen.getByRole('heading', { name: 'Trip', level: 1 })).toHaveFocus();

    await act(async () => {
      history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(await screen.findByText(/Step 2 of 2/)).toBeVisible();
  });

  it('empties a file slot and says why when the file kept on the device is gone at submit', async () => {
    // Picked while offline: the answer names a Blob in IndexedDB, which the browser has since cleared.
    const kept = { name: 'Passport', deleteId: 'local:cleared', originalName: 'passport.pdf' };
    const draft = {
      formId: form._id,
      values: { t1: 'Priya' },
      files: { f1: kept },
      website: '',
      idempotencyKey: null,
    };
    localStorage.setItem(KEYS.draft, JSON.stringify(draft));
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => Promise.resolve(Response.json(form)));
    await openLink();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('passport.pdf')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('This file is no longer on this device; choose it again')).toBeVisible();
    expect(screen.queryByText('passport.pdf')).toBeNull();
    expect(screen.getByLabelText(/Passport/)).toBeEnabled();
    // Nothing was uploaded or submitted without the file; /fileUpload reads the form again, as it always does.
    const sent = fetch.mock.calls
      .map(([url]) => String(url))
      .filter((url) => !url.startsWith('/api/publicForm/'));
    expect(sent).toEqual([]);
    const saved = JSON.parse(localStorage.getItem(KEYS.draft) ?? '{}') as typeof draft;
    expect(saved).toMatchObject({ values: { t1: 'Priya' }, files: {}, idempotencyKey: null });
  });

  it('says the form is gone when the link names a form the server does not know', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      Response.json({ error: { code: 'NOT_FOUND', message: 'No such form' } }, { status: 404 }),
    );
    history.replaceState(null, '', `/customer/${form._id}/${OWNER}`);
    const first = await loadScreen(location.pathname);
    if (!first) throw new Error('no screen for the customer link');
    render(<CustomerApp first={first} />);
    expect(screen.getByRole('heading', { name: 'This form is no longer available' })).toBeVisible();
    expect(location.pathname).toBe(`/customer/${form._id}/${OWNER}`);
  });

  // The owner edited the form after this page loaded it (while the answers waited offline, say): the page's copy
  // cannot be answered as it is, so the customer is told to load it again rather than left at a message they cannot act on.
  it.each([
    ['a question it shows was deleted', 't2: This question is not on the form'],
    ['a required question it does not show was added', 'Phone: This question is required'],
  ])('says the form changed, keeping the answers, when %s', async (_, message) => {
    const twoTexts: PublicForm = {
      ...form,
      textField: [...form.textField, { _id: 't2', name: 'Nickname', type: 'text', required: false }],
      fileField: [],
      fieldOrder: [
        { _id: 't1', kind: 'text' },
        { _id: 't2', kind: 'text' },
      ],
    };
    vi.spyOn(globalThis, 'fetch').mockImplementation((url) =>
      Promise.resolve(
        String(url).startsWith('/api/forms/')
          ? Response.json({ error: { code: 'VALIDATION_FAILED', message } }, { status: 400 })
          : Response.json(twoTexts),
      ),
    );
    await openLink(twoTexts);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/Full name/), 'Priya');
    await user.type(screen.getByLabelText(/Nickname/), 'Pri');
    await user.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText(FORM_CHANGED)).toBeVisible();
    expect(screen.getByLabelText(/Nickname/)).not.toHaveAttribute('aria-invalid', 'true');
    const saved = JSON.parse(localStorage.getItem(KEYS.draft) ?? '{}') as {
      values: unknown;
      idempotencyKey: unknown;
    };
    expect(saved).toMatchObject({ values: { t1: 'Priya', t2: 'Pri' }, idempotencyKey: null });
  });

  it('tells assistive technology which questions must be answered, as the server-drawn form does', async () => {
    const options = [
      { _id: 'o1', value: 'S' },
      { _id: 'o2', value: 'M' },
    ];
    const every: PublicForm = {
      ...form,
      selectField: [{ _id: 's1', name: 'Size', required: true, options }],
      radioField: [{ _id: 'r1', name: 'Shift', required: true, options }],
      checkField: [{ _id: 'c1', name: 'Extras', required: true, options }],
      fileField: [],
      fieldOrder: [
        { _id: 't1', kind: 'text' },
        { _id: 's1', kind: 'select' },
        { _id: 'r1', kind: 'radio' },
        { _id: 'c1', kind: 'check' },
      ],
    };
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(Response.json(every));
    await openLink(every);
    expect(screen.getByRole('textbox', { name: /Full name/ })).toBeRequired();
    expect(screen.getByRole('combobox', { name: /Size/ })).toBeRequired();
    expect(screen.getByRole('radiogroup', { name: /Shift/ })).toBeRequired();
    // ARIA allows no aria-required on a checkbox group: its legend says "required".
    expect(screen.getByRole('group', { name: /Extras/ })).not.toHaveAttribute('aria-required');
  });
});
