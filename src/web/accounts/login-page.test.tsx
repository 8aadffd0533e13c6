import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { answer, renderAt } from './render-at.tsx';

const OWNER_ID = '7d3f1c52-2f3e-4a8b-9c41-0b6e4f2a9d10';

async function logIn(password = 'whatever1') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'meera@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('/login', () => {
  it.each([
    [404, 'EMAIL_NOT_FOUND', ACCOUNT_MESSAGES.emailNotFound],
    [405, 'PASSWORD_INVALID', ACCOUNT_MESSAGES.passwordInvalid],
    [406, 'EMAIL_NOT_VERIFIED', ACCOUNT_MESSAGES.emailNotVerified],
  ])('shows the login failure message for a %i', async (status, code, message) => {
    answer(status, { error: { code, message } });
    renderAt('/login');
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(localStorage.getItem('easyId')).toBeNull();
  });

  it('disables the button and says it is logging in while the request is on its way', async () => {
    let reply: (response: Response) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise((resolve) => (reply = resolve)));
    renderAt('/login');
    await logIn();
    expect(await screen.findByRole('button', { name: 'Logging in…' })).toBeDisabled();
    reply(
      new Response(JSON.stringify({ error: { code: 'EMAIL_NOT_FOUND', message: 'x' } }), { status: 404 }),
    );
    expect(await screen.findByRole('button', { name: 'Log In' })).toBeEnabled();
  });

  it('offers a new verification link for an unverified email, and confirms it was sent', async () => {
    answer(406, { error: { code: 'EMAIL_NOT_VERIFIED', message: ACCOUNT_MESSAGES.emailNotVerified } });
    renderAt('/login');
    await logIn();
    const resend = await screen.findByRole('button', { name: 'Resend verification email' });
    answer(200, { ok: true, message: 'If the account exists, a link is on its way' });
    await userEvent.setup().click(resend);
    expect(await screen.findByText(/We sent a new verification link to meera@example.com/)).toBeVisible();
  });

  it('stores the session and profile and opens the owner page on a 201', async () => {
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(new Response(JSON.stringify({ token: 'secret', id: OWNER_ID }), { status: 201 }))
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ fullName: 'Meera Nair', email: 'meera@example.com' }), { status: 200 }),
      );
    renderAt('/login');
    await logIn();
    expect(await screen.findByText('owner page')).toBeVisible();
    expect(localStorage.getItem('token')).toBe('secret');
    expect(localStorage.getItem('id')).toBe(OWNER_ID);
    expect(localStorage.getItem('easyId')).toBeTruthy();
    expect(JSON.parse(localStorage.getItem('myProfile') ?? 'null')).toEqual({
      fullName: 'Meera Nair',
      email: 'meera@example.com',
    });
  });

  it('shows the owner page instead when already signed in', async () => {
    localStorage.setItem('easyId', OWNER_ID);
    localStorage.setItem('id', OWNER_ID);
    localStorage.setItem('token', 'secret');
    renderAt('/login');
    expect(await screen.findByText('owner page')).toBeVisible();
  });
});
