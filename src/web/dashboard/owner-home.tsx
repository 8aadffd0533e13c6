import { DashboardPage } from './dashboard-page.tsx';

/** '/' for a signed-in owner (spec §2) is the dashboard. */
export function OwnerHome() {
  return <DashboardPage />;
}
