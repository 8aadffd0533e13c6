import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';

/** The query cache every owner screen shares: one per page load. */
export const createQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

/**
 * What wraps the router, in the browser (main.tsx) and in the build's drawing of '/' (prerender.tsx) alike:
 * a page the browser takes over must be drawn by the same tree.
 */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </StrictMode>
  );
}
