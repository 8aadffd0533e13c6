import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotificationSettings } from './notification-settings.tsx';

const FID = '6f1c2a4e-0000-4000-8000-000000000001';

/** The API as the server answers these two routes: what was PUT is what GET gives next. */
function serve(initial: { notifyOwner: boolean; respondentCopy: boolean; hasEmailQuestion: boolean }) {
  let state = { ...initial };
  const calls: { method: string; body: unknown }[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (!url.endsWith(`/api/formNotifications/${FID}`)) return new Response('{}', { status: 404 });
    if (method === 'PUT') {
      const body = JSON.parse(String(init?.body)) as typeof state;
      calls.push({ method, body });
      state = { ...body, hasEmailQuestion: state.hasEmailQuestion };
    }
    return new Response(JSON.stringify(state), { status: 200 });
  });
  return calls;
}

function renderCard() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <NotificationSettings fid={FID} />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('NotificationSettings', () => {
  it('shows the saved settings as labelled checkboxes and saves a change from the keyboard', async () => {
    const calls = serve({ notifyOwner: true, respondentCopy: false, hasEmailQuestion: true });
    renderCard();
    const owner = await screen.findByRole('checkbox', { name: 'Email me when a response arrives' });
    const copy = screen.getByRole('checkbox', { name: 'Send respondents a copy of their answers' });
    expect(owner).toBeChecked();
    expect(copy).not.toBeChecked();
    expect(copy).toHaveAccessibleDescription(/address they type/);
    const user = userEvent.setup();
    copy.focus();
    await user.keyboard(' ');
    expect(await screen.findByText('All changes saved')).toBeInTheDocument();
    expect(calls).toEqual([{ method: 'PUT', body: { notifyOwner: true, respondentCopy: true } }]);
    expect(copy).toBeChecked();
  });

  it('says a copy needs an email question when the form has none', async () => {
    serve({ notifyOwner: false, respondentCopy: false, hasEmailQuestion: false });
    renderCard();
    const copy = await screen.findByRole('checkbox', { name: 'Send respondents a copy of their answers' });
    expect(copy).toHaveAccessibleDescription(/Add an email question first/);
    expect(screen.getByRole('checkbox', { name: 'Email me when a response arrives' })).not.toBeChecked();
  });
});
