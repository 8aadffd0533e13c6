import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PublicForm } from '#common/forms.ts';
import { CustomerApp } from './customer-app.tsx';
import { loadScreen } from './customer-screens.ts';

const form: PublicForm = {
  _id: '6f1c2b8e-4a1d-4c55-9a55-2d4f3f0e9c01',
  formTitle: 'Trip',
  description: 'Where to?',
  color: '#FFFFFF',
  border: '#1A73E8',
  Date: '1/1/2027, 10:00:00 AM',
  textField: [{ _id: 't1', name: 'Full name', type: 'text', required: true }],
  selectField: [],
  radioField: [],
  checkField: [],
  fileField: [{ _id: 'f1', name: 'Passport', type: 'file', required: false }],
  fieldOrder: [
    { _id: 't1', kind: 'text' },
    { _id: 'f1', kind: 'file' },
  ],
  thankYouMessage: null,
  redirectUrl: null,
};
const OWNER = '0b0e5c9a-7d5e-4c1e-8a57-6d0f1d2e3f40';

/** Opens the customer link the way customer.html does: the server put the form in the page. */
async function openLink() {
  const data = document.createElement('script');
  data.type = 'application/json';
  data.id = 'fill-form';
  data.textContent = JSON.stringify(form);
  document.body.append(data);
  history.replaceState(null, '', `/customer/${form._id}/${OWNER}`);
  const first = await loadScreen(location.pathname);
  if (!first) throw new Error('no screen for the customer link');
  // The link's screen is /preview's; fill/take-over.tsx puts that address in the bar when it shows the screen.
  expect(location.pathname).toBe(`/customer/${form._id}/${OWNER}`);
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
    expect(fetch).not.toHaveBeenCalled();
    expect(document.getElementById('fill-form')).toBeNull();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This question is required')).toBeVisible();
    await user.type(screen.getByLabelText(/Full name/), 'Priya');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText(/Step 2 of 2/)).toBeVisible();
    expect(location.pathname).toBe('/fileUpload');

    await user.click(screen.getByRole('link', { name: 'Back' }));
    expect(await screen.findByText(/Step 1 of 2/)).toBeVisible();
    expect(location.pathname).toBe('/preview');
    expect(screen.getByLabelText(/Full name/)).toHaveValue('Priya');

    await act(async () => {
      history.back();
      await new Promise((resolve) => window.addEventListener('popstate', resolve, { once: true }));
    });
    expect(await screen.findByText(/Step 2 of 2/)).toBeVisible();
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
});
