import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ACCOUNT_MESSAGES } from '#common/accounts.ts';
import { LoginPage } from './login-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/signUp', element: <SignUpPage /> },
      { path: '/login', element: <LoginPage /> },
      { path: '/verification', element: <p>verification page</p> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const answer = (status: number, body: unknown) =>
  vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(JSON.stringify(body), { status }));

describe('sign-up page', () => {
  it('shows field errors for a short password and a mismatched confirmation without calling the server', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderAt('/signUp');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Meera');
    await user.type(screen.getByLabelText('Email'), 'meera@example.com');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm Password'), 'different');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeVisible();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Passwords do not match')).toBeVisible();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says the email is taken, with ways on, when the server answers 409', async () => {
    answer(409, { error: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists.' } });
    renderAt('/signUp');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Name'), 'Meera');
    await user.type(screen.getByLabelText('Email'), 'meera@example.com');
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.type(screen.getByLabelText('Confirm Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An account with this email already exists.');
    expect(screen.getByRole('link', { name: 'reset your password' })).toHaveAttribute(
      'href',
      '/forgetPassword',
    );
  });

  it('toggles the password between hidden and shown', async () => {
    renderAt('/signUp');
    const user = userEvent.setup();
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
  });
});

describe('login page', () => {
  it.each([
    [404, ACCOUNT_MESSAGES.emailNotFound],
    [405, ACCOUNT_MESSAGES.passwordInvalid],
    [406, ACCOUNT_MESSAGES.emailNotVerified],
  ])('shows the spec message for a %i', async (status, message) => {
    answer(status, { error: { code: 'X', message } });
    renderAt('/login');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Email'), 'meera@example.com');
    await user.type(screen.getByLabelText('Password'), 'whatever1');
    await user.click(screen.getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    if (status === 406)
      expect(screen.getByRole('button', { name: 'Resend verification email' })).toBeVisible();
  });
});
