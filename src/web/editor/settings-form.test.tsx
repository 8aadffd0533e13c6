import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormSettingsView } from '#common/form-settings.ts';
import { SettingsForm } from './settings-form.tsx';

const FID = '6f1c2a4e-0000-4000-8000-000000000002';
const SAVED: FormSettingsView = {
  // 9:00 in the morning in New York, 19:30 in Kolkata.
  opensAt: '2030-01-15T14:00:00.000Z',
  closesAt: null,
  responseLimit: null,
  closedMessage: null,
  thankYouMessage: null,
  redirectUrl: null,
  timeZone: 'Asia/Kolkata',
  responseCount: 0,
};

/** The settings and account zone routes as the server answers them: what was PUT comes back stored. */
function serve() {
  const bodies: Record<string, unknown>[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (String(input).endsWith('/api/v1/timeZone') && init?.method === 'PUT') {
      bodies.push(JSON.parse(String(init.body)) as Record<string, unknown>);
      return new Response(String(init.body), { status: 200 });
    }
    if (!String(input).endsWith(`/api/formSettings/${FID}`) || init?.method !== 'PUT')
      return new Response('{}', { status: 404 });
    const body = JSON.parse(String(init.body)) as Record<string, unknown>;
    bodies.push(body);
    return new Response(JSON.stringify({ ...SAVED, ...body }), { status: 200 });
  });
  return bodies;
}

function renderForm() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <SettingsForm fid={FID} saved={SAVED} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('the form settings', () => {
  // Choosing among every zone Intl knows is slow in jsdom: this test gets more time than the default.
  it(
    'shows and takes the schedule in the owner’s own zone, not the server’s',
    { timeout: 20_000 },
    async () => {
      localStorage.setItem('ownerTimeZone', 'America/New_York');
      const bodies = serve();
      renderForm();
      expect(screen.getByText(/Times are in your time zone, America\/New_York/)).toBeVisible();
      const opens = screen.getByLabelText('Open from');
      expect(opens).toHaveValue('2030-01-15T09:00');
      const user = userEvent.setup();
      await user.clear(opens);
      await user.type(opens, '2030-01-16T08:30');
      await user.tab();
      expect(await screen.findByText('All changes saved')).toBeVisible();
      expect(bodies.at(-1)?.opensAt).toBe('2030-01-16T13:30:00.000Z');

      // Another zone, chosen here, is kept with the account, and the same instant shows on its clock.
      await user.selectOptions(screen.getByLabelText('Your time zone'), 'Asia/Tokyo');
      await waitFor(() => expect(opens).toHaveValue('2030-01-16T22:30'));
      expect(bodies.at(-1)).toEqual({ timeZone: 'Asia/Tokyo' });
      expect(screen.getByRole('status')).toHaveTextContent('All changes saved');
      expect(screen.getByText(/Times are in your time zone, Asia\/Tokyo/)).toBeVisible();
      expect(localStorage.getItem('ownerTimeZone')).toBe('Asia/Tokyo');
    },
  );

  it('saves a setting as the owner leaves it, with no Save button, and sends nothing when nothing changed', async () => {
    const bodies = serve();
    renderForm();
    expect(screen.queryByRole('button', { name: /save/i })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Thank-you message'));
    await user.tab();
    expect(bodies).toEqual([]);
    await user.type(screen.getByLabelText('Close after this many responses'), '40');
    await user.tab();
    expect(await screen.findByText('All changes saved')).toBeVisible();
    expect(bodies).toHaveLength(1);
    expect(bodies[0]?.responseLimit).toBe(40);
  });
});
