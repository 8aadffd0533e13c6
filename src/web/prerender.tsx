// Run by the build (vite.config.ts, through Vite's SSR loader), never in a browser: draws '/' as a visitor without
// a session sees it, so the landing page arrives as HTML (docs/decisions/033-landing-page-drawn-at-build.md).
import { prerender } from 'react-dom/static';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './app-providers.tsx';
import { routes } from './router.tsx';

export { SESSION_GATE_SCRIPT } from './landing/session-gate.ts';

/** The markup of '/' inside #root, with the same tree main.tsx then hydrates. */
export async function renderHome(): Promise<string> {
  const { query, dataRoutes } = createStaticHandler(routes);
  const context = await query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`'/' answered ${context.status} when drawn`);
  const { prelude } = await prerender(
    <AppProviders client={createQueryClient()}>
      {/* No hydration data: '/' loads nothing, and its script would be inline. */}
      <StaticRouterProvider
        router={createStaticRouter(dataRoutes, context)}
        context={context}
        hydrate={false}
      />
    </AppProviders>,
  );
  return new Response(prelude).text();
}
