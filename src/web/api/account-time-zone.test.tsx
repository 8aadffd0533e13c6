import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountTimeZone } from '../ui/owner-time-zone.ts';
import { useAccountTimeZoneSync, useSaveAccountTimeZone } from './account-time-zone.ts';

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

/** An owner screen: it reads the account's zone as it loads, and saves New York's when the button is pressed. */
function Screen() {
  useAccountTimeZoneSync();
  const saving = useSaveAccountTimeZone();
  return (
    <button type="button" onClick={() => saving.mutate('America/New_York')}>
      Save
    </button>
  );
}

describe('the account’s time zone', () => {
  it('keeps the zone just saved when the page’s slower read of the old one comes back after it', async () => {
    localStorage.setItem('token', 'a-token');
    let answerRead: (zone: string) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch').mockImplementation((_input, init) =>
      init?.method === 'PUT'
        ? Promise.resolve(Response.json(JSON.parse(String(init.body))))
        : new Promise((resolve) => (answerRead = (zone) => resolve(Response.json({ timeZone: zone })))),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { getByRole } = render(
      <QueryClientProvider client={client}>
        <Screen />
      </QueryClientProvider>,
    );
    act(() => getByRole('button', { name: 'Save' }).click());
    await waitFor(() => expect(accountTimeZone()).toBe('America/New_York'));
    // The read was answered by the server before the save: the zone it carries is the old one.
    await act(async () => answerRead('Asia/Tokyo'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(accountTimeZone()).toBe('America/New_York');
  });
});
