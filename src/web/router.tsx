import type { ComponentType } from 'react';
import type { LoaderFunctionArgs, RouteObject } from 'react-router';
import { RequireOwner } from './accounts/require-owner.tsx';
import { paths } from './paths.ts';
import { PageChangeFocus } from './ui/page-change-focus.tsx';
import { RootError } from './ui/root-error.tsx';

// Each screen is its own chunk, so a visitor downloads only what they open.
/** An owner-only screen without the owner header, loaded on first visit: signed-out visitors go to /login and come back after. */
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

/**
 * The app's routes: main.tsx makes the browser's router of them, prerender.tsx draws '/' with them at build
 * time, so the page the server sends and the one the browser takes over are the same tree.
 */
export const routes: RouteObject[] = [
  {
    // After each page change, focus moves to the new screen's heading (ui/page-change-focus.tsx).
    element: <PageChangeFocus />,
    errorElement: <RootError />,
    children: [
      {
        path: paths.home.path,
        // '/' is the landing page without a stored easyId, the owner's dashboard with one (docs/product.md,
        // Who uses it).
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
        path: paths.resetPassword.path,
        lazy: async () => ({
          Component: (await import('./accounts/reset-password-page.tsx')).ResetPasswordPage,
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
        // The owner's screens share the owner header (ui/owner-layout.tsx); each screen is still its own chunk.
        lazy: async () => {
          const { OwnerLayout } = await import('./ui/owner-layout.tsx');
          return {
            Component: () => (
              <RequireOwner>
                <OwnerLayout />
              </RequireOwner>
            ),
          };
        },
        children: [
          {
            path: paths.createPage.path,
            lazy: async () => ({ Component: (await import('./dashboard/create-page.tsx')).CreatePage }),
          },
          {
            path: paths.dashboard.path,
            lazy: async () => ({ Component: (await import('./dashboard/dashboard-page.tsx')).DashboardPage }),
          },
          // Route paths match case-insensitively, so the original client's lower-case /makeforms lands here too.
          {
            path: paths.makeForms.path,
            lazy: async () => ({ Component: (await import('./editor/editor-page.tsx')).EditorPage }),
          },
          {
            path: paths.formSettings.path,
            lazy: async () => ({
              Component: (await import('./editor/form-settings-page.tsx')).FormSettingsPage,
            }),
          },
          {
            path: paths.formList.path,
            lazy: async () => ({ Component: (await import('./responses/form-list-page.tsx')).FormListPage }),
          },
          {
            path: paths.formResults.path,
            lazy: async () => ({ Component: (await import('./results/results-page.tsx')).ResultsPage }),
          },
          {
            path: paths.submitedForm.path,
            lazy: async () => ({
              Component: (await import('./responses/submission-page.tsx')).SubmissionPage,
            }),
          },
          {
            path: paths.userForm.path,
            lazy: async () => ({ Component: (await import('./profile/user-form-page.tsx')).UserFormPage }),
          },
        ],
      },
      {
        // The owner's preview of a form shows it as the customer will see it, without the owner header.
        path: paths.correctionPurpose.path,
        lazy: ownerPage(() => import('./editor/preview-page.tsx').then((m) => m.PreviewPage)),
      },
      // The customer's screens are a page of their own (customer.html, docs/decisions/012-customer-entry.md):
      // a link to one from here loads that page.
      ...[paths.customer.path, paths.preview.path, paths.fileUpload.path].map((path) => ({
        path,
        loader: ({ request }: LoaderFunctionArgs) => {
          // Already this document's address: the server sent index.html here, and loading it again would loop.
          if (request.url === window.location.href)
            throw new Response(null, { status: 404, statusText: 'Not Found' });
          window.location.assign(request.url);
          return new Promise<never>(() => undefined);
        },
      })),
      // The public site's pages (landing/site-chrome.tsx).
      ...(
        [
          [paths.templates.path, () => import('./landing/templates-page.tsx').then((m) => m.TemplatesPage)],
          [
            paths.integrations.path,
            () => import('./landing/integrations-page.tsx').then((m) => m.IntegrationsPage),
          ],
          [paths.resources.path, () => import('./landing/resources-page.tsx').then((m) => m.ResourcesPage)],
          [paths.support.path, () => import('./landing/support-page.tsx').then((m) => m.SupportPage)],
          [paths.terms.path, () => import('./landing/legal-page.tsx').then((m) => m.TermsPage)],
          [paths.privacy.path, () => import('./landing/legal-page.tsx').then((m) => m.PrivacyPage)],
        ] as const
      ).map(([path, load]) => ({ path, lazy: async () => ({ Component: await load() }) })),
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
];
