import type { TemplateId } from '#common/forms.ts';
import { customerPaths } from './customer-paths.ts';

/** Every route of the app, with a builder for its URL (docs/product.md, Owner screens and Customer pages). */
export const paths = {
  /** The login page; with `next`, the page it returns to once the owner has signed in. */
  login: {
    path: '/login',
    href: (next?: string) => (next === undefined ? '/login' : `/login?next=${encodeURIComponent(next)}`),
  },
  /** The sign-up page; with `next`, the page the new owner reaches at their first login (a chosen template). */
  signUp: {
    path: '/signUp',
    href: (next?: string) => (next === undefined ? '/signUp' : `/signUp?next=${encodeURIComponent(next)}`),
  },
  forgetPassword: { path: '/forgetPassword', href: () => '/forgetPassword' },
  updatePassword: {
    path: '/updatePassword/:email',
    href: (email: string) => `/updatePassword/${encodeURIComponent(email)}`,
  },
  resetPassword: { path: '/resetPassword', href: () => '/resetPassword' },
  verification: { path: '/verification', href: () => '/verification' },
  verify: { path: '/verify', href: () => '/verify' },
  emailVerify: { path: '/emailVerify', href: () => '/emailVerify' },
  emailVerified: { path: '/emailVerified', href: () => '/emailVerified' },
  notReady: { path: '/notReady', href: () => '/notReady' },
  templates: { path: '/templates', href: () => '/templates' },
  integrations: { path: '/integrations', href: () => '/integrations' },
  resources: { path: '/resources', href: () => '/resources' },
  support: { path: '/support', href: () => '/support' },
  terms: { path: '/terms', href: () => '/terms' },
  privacy: { path: '/privacy', href: () => '/privacy' },
  /** The create page; with a template, the page makes a form of it at once and opens it in the editor. */
  createPage: {
    path: '/createPage',
    href: (template?: TemplateId) => (template ? `/createPage?template=${template}` : '/createPage'),
  },
  /** The dashboard, at one of its tabs (Request when none is named). */
  dashboard: {
    path: '/dashboard',
    href: (tab?: 'request' | 'received' | 'setting') => (tab ? `/dashboard?tab=${tab}` : '/dashboard'),
  },
  makeForms: { path: '/makeForms', href: (fid: string) => `/makeForms?fid=${fid}` },
  formSettings: { path: '/formSettings', href: (fid: string) => `/formSettings?fid=${fid}` },
  correctionPurpose: { path: '/correctionPurpose', href: (fid: string) => `/correctionPurpose?fid=${fid}` },
  formList: { path: '/formList', href: (fid: string) => `/formList?fid=${fid}` },
  formResults: { path: '/formResults', href: (fid: string) => `/formResults?fid=${fid}` },
  submitedForm: { path: '/submitedForm/:userFormId', href: (id: string) => `/submitedForm/${id}` },
  userForm: { path: '/userForm', href: () => '/userForm' },
  ...customerPaths,
} as const;
