import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { paths } from '../paths.ts';
import { ForgetPasswordPage } from './forget-password-page.tsx';
import { LoginPage } from './login-page.tsx';
import { ResetPasswordPage } from './reset-password-page.tsx';
import { SignUpPage } from './sign-up-page.tsx';
import { UpdatePasswordPage } from './update-password-page.tsx';

/** Test helper: the account pages at `path`, with the places they lead to as plain markers. */
export function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: paths.signUp.path, element: <SignUpPage /> },
      { path: paths.login.path, element: <LoginPage /> },
      { path: paths.forgetPassword.path, element: <ForgetPasswordPage /> },
      { path: paths.updatePassword.path, element: <UpdatePasswordPage /> },
      { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
      { path: paths.verification.path, element: <p>verification page</p> },
      { path: paths.createPage.path, element: <p>owner page</p> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The API answering every call with `status` and `body`, as a real Response would. */
export const answer = (status: number, body: unknown) =>
  vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async () => new Response(JSON.stringify(body), { status }));
