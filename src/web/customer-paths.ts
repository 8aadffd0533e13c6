/**
 * The customer's routes (docs/product.md, Customer pages), apart from the owner's in paths.ts: the customer's
 * chunk (fill/) imports only this map, so a route added for the owner never adds a byte to what a customer
 * downloads (docs/decisions/012-customer-entry.md).
 */
export const customerPaths = {
  /** The site's home: the landing page, or the owner's dashboard on a device they are signed in on. */
  home: { path: '/', href: () => '/' },
  customer: {
    path: '/customer/:fid/:id',
    href: (fid: string, ownerId: string) => `/customer/${fid}/${ownerId}`,
  },
  preview: { path: '/preview', href: () => '/preview' },
  fileUpload: { path: '/fileUpload', href: () => '/fileUpload' },
} as const;
