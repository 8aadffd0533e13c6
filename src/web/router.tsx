import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { RequireOwner } from './accounts/require-owner.tsx';
import { paths } from './paths.ts';
import { RootError } from './ui/root-error.tsx';

// Each screen is its own chunk, so a visitor downloads only what they open.
/** An owner-only screen, loaded on first visit: signed-out visitors go to /login and come back after. */
const ownerPage = (load: () => Promise<ComponentType>) => async () => {
  const Page = await load();
  return {
    Component: () => (
      <RequireOwner>
        <Page />
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
        lazy: async () => ({ Component: (await import('./home-route.tsx')).HomeRoute }),
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
      {
        path: paths.createPage.path,
        lazy: ownerPage(() => import('./dashboard/create-page.tsx').then((m) => m.CreatePage)),
      },
      {
        path: paths.dashboard.path,
        lazy: ownerPage(() => import('./dashboard/dashboard-page.tsx').then((m) => m.DashboardPage)),
      },
      // Route paths match case-insensitively, so the spec's lower-case /makeforms lands here too.
      {
        path: paths.makeForms.path,
        lazy: ownerPage(() => import('./editor/editor-page.tsx').then((m) => m.EditorPage)),
      },
      {
        path: paths.correctionPurpose.path,
        lazy: ownerPage(() => import('./editor/preview-page.tsx').then((m) => m.PreviewPage)),
      },
      {
        path: paths.formList.path,
        lazy: ownerPage(() => import('./responses/form-list-page.tsx').then((m) => m.FormListPage)),
      },
      {
        path: paths.submitedForm.path,
        lazy: ownerPage(() => import('./responses/submission-page.tsx').then((m) => m.SubmissionPage)),
      },
      {
        path: paths.userForm.path,
        lazy: ownerPage(() => import('./profile/user-form-page.tsx').then((m) => m.UserFormPage)),
      },
      // The customer's screens: small chunks of their own that never load the owner's code.
      {
        path: paths.customer.path,
        lazy: async () => {
          const [{ loadCustomerLink }, { CustomerLinkPage }] = await Promise.all([
            import('./fill/load-fill-form.ts'),
            import('./fill/customer-link-page.tsx'),
          ]);
          return { loader: loadCustomerLink, Component: CustomerLinkPage };
        },
      },
      {
        path: paths.preview.path,
        lazy: async () => {
          const [{ loadFillForm }, { PreviewPage }] = await Promise.all([
            import('./fill/load-fill-form.ts'),
            import('./fill/preview-page.tsx'),
          ]);
          return { loader: loadFillForm, Component: PreviewPage };
        },
      },
      {
        path: paths.fileUpload.path,
        lazy: async () => {
          const [{ loadFillForm }, { FileUploadPage }] = await Promise.all([
            import('./fill/load-fill-form.ts'),
            import('./fill/file-upload-page.tsx'),
          ]);
          return { loader: loadFillForm, Component: FileUploadPage };
        },
      },
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
