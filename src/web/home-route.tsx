import { lazy, Suspense } from 'react';
import { readSession } from './api/session.ts';

const LandingPage = lazy(() =>
  import('./landing/landing-page.tsx').then((module) => ({ default: module.LandingPage })),
);
const OwnerHome = lazy(() =>
  import('./dashboard/owner-home.tsx').then((module) => ({ default: module.OwnerHome })),
);

/**
 * '/' (docs/product.md, Who uses it): the landing page without a stored easyId, the owner's page with one.
 * Decided on every render, not in the route's lazy(): the router runs lazy() once and keeps its answer, so a
 * visitor who logs in and comes back to '/' would still get the landing page. Each side stays its own chunk.
 */
export function HomeRoute() {
  return <Suspense fallback={null}>{readSession() ? <OwnerHome /> : <LandingPage />}</Suspense>;
}
