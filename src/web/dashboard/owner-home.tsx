import { DashboardPage } from './dashboard-page.tsx';

/** '/' for a signed-in owner is the dashboard (docs/product.md, Dashboard). */
export function OwnerHome() {
  return <DashboardPage />;
}
