import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { readSession } from '../api/session.ts';
import { paths } from '../paths.ts';

/** Owner pages send a signed-out visitor to /login and bring them back afterwards, to the same address. */
export function RequireOwner({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!readSession()) {
    return <Navigate to={paths.login.href(location.pathname + location.search)} replace />;
  }
  return children;
}
