/**
 * The customer's routes (spec §2), apart from the owner's in paths.ts: the customer's chunk (fill/) imports only
 * this map, so a route added for the owner never adds a byte to what a customer downloads (DESIGN.md §5).
 */
export const customerPaths = {
  customer: {
    path: '/customer/:fid/:id',
    href: (fid: string, ownerId: string) => `/customer/${fid}/${ownerId}`,
  },
  preview: { path: '/preview', href: () => '/preview' },
  fileUpload: { path: '/fileUpload', href: () => '/fileUpload' },
} as const;
