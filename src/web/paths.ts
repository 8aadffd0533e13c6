/** Every route of the app, with a builder for its URL (spec §2). */
export const paths = {
  home: { path: '/', href: () => '/' },
  login: { path: '/login', href: () => '/login' },
  signUp: { path: '/signUp', href: () => '/signUp' },
  forgetPassword: { path: '/forgetPassword', href: () => '/forgetPassword' },
  updatePassword: {
    path: '/updatePassword/:email',
    href: (email: string) => `/updatePassword/${encodeURIComponent(email)}`,
  },
  verification: { path: '/verification', href: () => '/verification' },
  verify: { path: '/verify', href: () => '/verify' },
  emailVerify: { path: '/emailVerify', href: () => '/emailVerify' },
  emailVerified: { path: '/emailVerified', href: () => '/emailVerified' },
  notReady: { path: '/notReady', href: () => '/notReady' },
  createPage: { path: '/createPage', href: () => '/createPage' },
  dashboard: { path: '/dashboard', href: () => '/dashboard' },
} as const;
