import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { RootError } from './root-error.tsx';

function Broken(): never {
  throw new Error('Cannot read the form');
}

describe('root error element', () => {
  it("shows the 'Unexpected Application Error!' heading, the error text and a Reload button when a screen throws", async () => {
    // React reports the thrown error on the console; here that is the point of the test.
    vi.mocked(console.error).mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <RootError /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    expect(screen.getByText('Cannot read the form')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
  });
});
