import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { signUpSuccessMessage } from '#common/accounts.ts';
import { answer, renderAt } from './render-at.tsx';

async function fillSignUp(password: string, confirmPassword = password) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Name'), 'Meera Nair');
  await user.type(screen.getByLabelText('Email'), 'meera@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm Password'), confirmPassword);
  await user.click(screen.getByRole('button', { name: 'Create Account' }));
  return user;
}

describe('/signUp', () => {
  it('shows field errors for a short password and a mismatched confirmation without calling the server', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderAt('/signUp');
    const user = await fillSignUp('short', 'different');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeVisible();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long enough');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Passwords do not match')).toBeVisible();
    expect(screen.getByLabelText('Confirm Password')).toHaveAccessibleDescription('Passwords do not match');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('remembers the email and goes on to /verification with the success message on a 203', async () => {
    answer(203, { data: { fullName: 'Meera Nair', email: 'meera@example.com' } });
    const router = renderAt('/signUp');
    await fillSignUp('long enough');
    expect(await screen.findByText('verification page')).toBeVisible();
    expect(router.state.location.state).toEqual({ notice: signUpSuccessMessage('Meera Nair') });
    expect(sessionStorage.getItem('signUpmail')).toBe('meera@example.com');
  });

  it('keeps no page from another site named by ?next=', async () => {
    answer(203, { data: { fullName: 'Meera Nair', email: 'meera@example.com' } });
    renderAt(`/signUp?next=${encodeURIComponent('//evil.example/createPage')}`);
    await fillSignUp('long enough');
    expect(await screen.findByText('verification page')).toBeVisible();
    expect(localStorage.getItem('firstPage')).toBeNull();
  });

  it('keeps the template a visitor chose (?next=) for their first login, and the way to log in keeps it too', async () => {
    answer(203, { data: { fullName: 'Meera Nair', email: 'meera@example.com' } });
    renderAt(`/signUp?next=${encodeURIComponent('/createPage?template=travel')}`);
    expect(screen.getAllByRole('link', { name: 'Log in' }).at(-1)).toHaveAttribute(
      'href',
      `/login?next=${encodeURIComponent('/createPage?template=travel')}`,
    );
    await fillSignUp('long enough');
    expect(await screen.findByText('verification page')).toBeVisible();
    expect(localStorage.getItem('firstPage')).toBe('/createPage?template=travel');
  });

  it('says the email is already registered, with links to log in or reset, on a 409', async () => {
    answer(409, { error: { code: 'EMAIL_TAKEN', message: 'An account with this email already exists' } });
    renderAt('/signUp');
    await fillSignUp('long enough');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An account with this email already exists.');
    expect(within(alert).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(within(alert).getByRole('link', { name: 'reset your password' })).toHaveAttribute(
      'href',
      '/forgetPassword',
    );
  });

  it('puts a 400 on the field the server names', async () => {
    answer(400, {
      error: { code: 'VALIDATION_FAILED', message: 'password: Password must be at most 256 characters' },
    });
    renderAt('/signUp');
    await fillSignUp('long enough');
    expect(await screen.findByText('Password must be at most 256 characters')).toBeVisible();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('toggles each password between hidden and shown', async () => {
    renderAt('/signUp');
    const user = userEvent.setup();
    const input = screen.getByLabelText('Password');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(input).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Show confirm password' })).toBeVisible();
  });
});
