import { createBrowserRouter } from 'react-router';
import { RequireOwner } from './accounts/require-owner.tsx';
import { readSession } from './api/session.ts';
import { paths } from './paths.ts';
import { RootError } from './ui/root-error.tsx';

// Each screen is its own chunk, so a visitor downloads only what they open.
const ownerHome = async () => {
  const { OwnerHome } = await import('./dashboard/owner-home.tsx');
  return {
    Component: () => (
      <RequireOwner>
        <OwnerHome />
      </RequireOwner>
    ),
  };
};

export const router = createBrowserRouter([
  {
    errorElement: <RootError />,
    children: [
      {
        path: paths.home.path,
        // Spec §2: '/' is the landing page without a stored easyId, the owner's dashboard with one.
        lazy: async () =>
          readSession()
            ? ownerHome()
            : { Component: (await import('./landing/landing-page.tsx')).LandingPage },
      },
      {
        path: paths.login.path,
        lazy: async () => ({ Component: (await import('./accounts/login-page.tsx')).LoginPage }),
      },
      {
        path: paths.signUp.path,
        lazy: async () => ({ Component: (await import('./accounts/sign-up-page.tsx')).SignUpPage }),
      },
      {
        path: paths.forgetPassword.path,
        lazy: async () => ({
          Component: (await import('./accounts/forget-password-page.tsx')).ForgetPasswordPage,
        }),
      },
      {
        path: paths.updatePassword.path,
        lazy: async () => ({
          Component: (await import('./accounts/update-password-page.tsx')).UpdatePasswordPage,
        }),
      },
      {
        path: paths.verification.path,
        lazy: async () => ({ Component: (await import('./accounts/verify-page.tsx')).VerifyPage }),
      },
      {
        path: paths.verify.path,
        lazy: async () => ({ Component: (await import('./accounts/verify-page.tsx')).VerifyPage }),
      },
      {
        path: paths.emailVerify.path,
        lazy: async () => ({ Component: (await import('./accounts/email-verify-page.tsx')).EmailVerifyPage }),
      },
      {
        path: paths.emailVerified.path,
        lazy: async () => ({
          Component: (await import('./accounts/email-verified-page.tsx')).EmailVerifiedPage,
        }),
      },
      { path: paths.createPage.path, lazy: ownerHome },
      { path: paths.dashboard.path, lazy: ownerHome },
      {
        path: paths.notReady.path,
        lazy: async () => ({ Component: (await import('./landing/not-ready-page.tsx')).NotReadyPage }),
      },
      {
        path: '*',
        lazy: async () => ({ Component: (await import('./landing/not-found-page.tsx')).NotFoundPage }),
      },
    ],
  },
]);
