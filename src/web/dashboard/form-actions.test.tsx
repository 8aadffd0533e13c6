import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { FormActions } from './form-actions.tsx';

const form = { _id: 'f1', formTitle: 'Homestay booking', responseCount: 4 };

function renderActions(responseCount = form.responseCount) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <FormActions form={{ ...form, responseCount }} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const menu = document.querySelector('details');
  if (!menu) throw new Error('the Actions menu is a <details>');
  return { menu, summary: screen.getByText('Actions') };
}

describe('FormActions', () => {
  it('closes its menu with Escape and leaves focus on the Actions button', async () => {
    const { menu, summary } = renderActions();
    await userEvent.click(summary);
    expect(menu.open).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await userEvent.keyboard('{Escape}');
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(summary);
  });

  it('closes its menu behind the delete question, which names the responses that go with the form', async () => {
    const { menu, summary } = renderActions();
    await userEvent.click(summary);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(menu.open).toBe(false);
    const dialog = screen.getByRole('dialog', { hidden: true });
    expect(dialog).toHaveTextContent('Delete “Homestay booking” and its 4 responses?');
    expect(dialog).toHaveTextContent('The form, its 4 responses and every uploaded file will be deleted.');
  });

  it('asks more simply for a form without responses', async () => {
    const { summary } = renderActions(0);
    await userEvent.click(summary);
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(screen.getByRole('dialog', { hidden: true })).toHaveTextContent('Delete “Homestay booking”?');
  });
});
