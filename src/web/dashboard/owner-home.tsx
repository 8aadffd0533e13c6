import { OwnerLayout } from '../ui/owner-layout.tsx';
import { DashboardPage } from './dashboard-page.tsx';

/** '/' for a signed-in owner is the dashboard (docs/product.md, Dashboard), under the owner header. */
export function OwnerHome() {
  return (
    <OwnerLayout>
      <DashboardPage />
    </OwnerLayout>
  );
}
