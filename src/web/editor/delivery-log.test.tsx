import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebhookDelivery, WebhookView } from '#common/webhooks.ts';
import { DeliveryLog } from './delivery-log.tsx';
import { attemptSummary } from './delivery-text.ts';

const FID = '6f1c2a4e-0000-4000-8000-000000000001';
const HOOK = '6f1c2a4e-0000-4000-8000-000000000002';

const delivery = (
  id: string,
  status: WebhookDelivery['status'],
  lastStatus: number | null,
): WebhookDelivery => ({
  id,
  submissionId: `6f1c2a4e-0000-4000-8000-00000000010${id}`,
  status,
  attempts: 2,
  createdAt: '2026-11-23T10:00:00.000Z',
  nextAttemptAt: status === 'pending' ? '2026-11-23T10:05:00.000Z' : null,
  lastAttempt: {
    at: '2026-11-23T10:01:00.000Z',
    statusCode: lastStatus,
    durationMs: 41,
    error:
      lastStatus === null ? 'Error: connect ECONNREFUSED' : lastStatus >= 300 ? `HTTP ${lastStatus}` : null,
  },
});

const hook: WebhookView = {
  id: HOOK,
  url: 'https://example.com/hook',
  createdAt: '2026-11-23T09:00:00.000Z',
  deliveries: [delivery('3', 'failed', null), delivery('2', 'pending', 503), delivery('1', 'succeeded', 200)],
};

/** The resend and attempts routes as the server answers them; every call is recorded. */
function serve() {
  const calls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = String(input);
    calls.push(`${init?.method ?? 'GET'} ${url}`);
    if (url.endsWith('/resend'))
      return new Response(JSON.stringify({ delivery: delivery('4', 'pending', null) }), { status: 201 });
    if (url.endsWith('/deliveries/2'))
      return new Response(
        JSON.stringify({
          delivery: delivery('2', 'pending', 503),
          attempts: [
            { at: '2026-11-23T10:00:01.000Z', statusCode: 500, durationMs: 12, error: 'HTTP 500' },
            { at: '2026-11-23T10:01:00.000Z', statusCode: 503, durationMs: 41, error: 'HTTP 503' },
          ],
        }),
        { status: 200 },
      );
    return new Response('{"webhooks":[]}', { status: 200 });
  });
  return calls;
}

function renderLog() {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DeliveryLog fid={FID} hook={hook} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('DeliveryLog', () => {
  it('shows how each delivery went, offers Resend only on a failed one, and sends it', async () => {
    const calls = serve();
    renderLog();
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((r) => within(r).getByText(/^(Delivered|Retrying|Failed)$/).textContent)).toEqual([
      'Failed',
      'Retrying',
      'Delivered',
    ]);
    expect(
      within(rows[0]!).getByText(/2 attempts, last .*: Error: connect ECONNREFUSED/),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/HTTP 503 in 41 ms\. Next try/)).toBeInTheDocument();
    expect(within(rows[2]!).getByText(/HTTP 200 in 41 ms$/)).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Resend' })).toHaveLength(1);
    expect(within(rows[0]!).getByRole('link', { name: 'View response' })).toHaveAttribute(
      'href',
      `/submitedForm/${hook.deliveries[0]!.submissionId}`,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Resend' }));
    await vi.waitFor(() =>
      expect(calls).toContain(`POST /api/formWebhooks/${FID}/${HOOK}/deliveries/3/resend`),
    );
  });

  it('lists every attempt of a delivery when asked', async () => {
    serve();
    renderLog();
    const retrying = screen.getAllByRole('listitem')[1]!;
    await userEvent.setup().click(within(retrying).getByText('All attempts'));
    const list = await within(retrying).findByRole('list');
    const attempts = within(list)
      .getAllByRole('listitem')
      .map((a) => a.textContent);
    expect(attempts).toEqual([
      expect.stringMatching(/^Nov 23, \d+:00:01 [AP]M HTTP 500 in 12 ms$/),
      expect.stringMatching(/^Nov 23, \d+:01:00 [AP]M HTTP 503 in 41 ms$/),
    ]);
  });
});

describe('attemptSummary', () => {
  it('says the status once, the error when no answer came, and both when they differ', () => {
    const at = '2026-11-23T10:00:00.000Z';
    expect(attemptSummary({ at, statusCode: 204, durationMs: 5, error: null })).toBe('HTTP 204 in 5 ms');
    expect(attemptSummary({ at, statusCode: 500, durationMs: 5, error: 'HTTP 500' })).toBe(
      'HTTP 500 in 5 ms',
    );
    expect(attemptSummary({ at, statusCode: 302, durationMs: 5, error: 'redirects are not followed' })).toBe(
      'HTTP 302 in 5 ms: redirects are not followed',
    );
    expect(
      attemptSummary({ at, statusCode: null, durationMs: 0, error: 'refused: 10.0.0.1 is private' }),
    ).toBe('refused: 10.0.0.1 is private');
  });
});
