import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { answer, renderAt } from './render-at.tsx';

const KEY = 'k'.repeat(43);

async function submitNewPassword(password = 'second password') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('New Password'), password);
  await user.type(screen.getByLabelText('Confirm Password'), password);
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
}

describe('/resetPassword#key=…', () => {
  it("sends the link's secret with the new password, then goes to /login with a notice", async () => {
    const fetch = answer(200, { ok: true, message: 'Password updated successfully' });
    renderAt(`/resetPassword#key=${KEY}`);
    expect(screen.getByRole('heading', { name: 'Set a new password' })).toBeVisible();
    expect(screen.queryByLabelText('One-time code')).toBeNull();
    await submitNewPassword();
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Password updated — log in with your new password.');
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v1/resetPassword');
    expect(JSON.parse(String(init?.body))).toEqual({
      key: KEY,
      password: 'second password',
      confirmPassword: 'second password',
    });
  });

  it('says a used or expired link is dead and links to a new one', async () => {
    answer(400, {
      error: { code: 'LINK_INVALID', message: 'This reset link is wrong, expired or already used.' },
    });
    renderAt(`/resetPassword#key=${KEY}`);
    await submitNewPassword();
    expect(await screen.findByText(/This reset link is wrong, expired or already used/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Request a new one' })).toHaveAttribute(
      'href',
      '/forgetPassword',
    );
  });

  it('says at once when the link lost its secret, asks for no password it could not use, and sends nothing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderAt('/resetPassword#key=cut-short');
    expect(screen.getByText(/This reset link is wrong, expired or already used/)).toBeVisible();
    expect(screen.queryByLabelText('New Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update Password' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Request a new one' })).toHaveAttribute(
      'href',
      '/forgetPassword',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('puts a password the server refuses on its field', async () => {
    answer(400, {
      error: { code: 'VALIDATION_FAILED', message: 'password: Password must be at most 256 characters' },
    });
    renderAt(`/resetPassword#key=${KEY}`);
    await submitNewPassword();
    const field = screen.getByLabelText('New Password');
    expect(await screen.findByText('Password must be at most 256 characters')).toBeVisible();
    expect(field).toHaveAttribute('aria-invalid', 'true');
  });
});
