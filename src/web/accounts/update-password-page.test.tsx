import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, renderAt } from './render-at.tsx';

async function submitReset(code: string) {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('One-time code'), code);
  await user.type(screen.getByLabelText('New Password'), 'second password');
  await user.type(screen.getByLabelText('Confirm Password'), 'second password');
  await user.click(screen.getByRole('button', { name: 'Update Password' }));
}

describe('/updatePassword/:email', () => {
  it('says at the code field that a rejected code is wrong, expired or used, and how to get another', async () => {
    answer(400, { error: { code: 'CODE_INVALID', message: 'The code is not valid' } });
    renderAt(`/updatePassword/${encodeURIComponent('meera@example.com')}`);
    expect(screen.getByText('meera@example.com')).toBeVisible();
    await submitReset('123456');
    const code = screen.getByLabelText('One-time code');
    expect(await screen.findByText(/That code is wrong, expired or already used/)).toBeVisible();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('link', { name: 'Request a new code' })).toHaveAttribute(
      'href',
      '/forgetPassword',
    );
  });

  it('goes to /login with a notice once the password is updated', async () => {
    answer(200, { ok: true, message: 'Password updated successfully' });
    renderAt(`/updatePassword/${encodeURIComponent('meera@example.com')}`);
    await submitReset('123456');
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('Password updated — log in with your new password.');
  });
});
