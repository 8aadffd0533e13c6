import './zod-without-eval.ts';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router';
import { readSession } from './api/session.ts';
import { AppProviders, createQueryClient } from './app-providers.tsx';
import { SESSION_CLASS } from './landing/session-gate.ts';
import { routes } from './router.tsx';
import './ui/styles.css';
import './ui/layout.css';
import './ui/owner.css';
import './ui/owner-tables.css';
import './ui/owner-menus.css';

/**
 * Loads the screens the address matches before the router starts, as the build did when it drew them: the router
 * then renders them at once, and hydration finds the same tree the page was drawn with.
 */
async function loadMatchedScreens(all: RouteObject[]): Promise<void> {
  const matches = matchRoutes(all, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      Object.assign(route, { ...(await route.lazy()), lazy: undefined });
    }),
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
// '/' arrives drawn as a visitor without a session sees it (docs/decisions/033-landing-page-drawn-at-build.md).
// Taken over where that is what this browser shows; an owner's browser draws its own home instead.
const drawn = root.hasChildNodes() && !readSession();
if (!drawn) root.replaceChildren();
document.documentElement.classList.remove(SESSION_CLASS);

function start(into: HTMLElement): void {
  const app = (
    <AppProviders client={createQueryClient()}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AppProviders>
  );
  if (drawn) hydrateRoot(into, app);
  else createRoot(into).render(app);
}

// A screen that cannot be loaded (the network went) leaves the drawn page as it is: its links still work.
if (drawn)
  void loadMatchedScreens(routes).then(
    () => start(root),
    () => undefined,
  );
else start(root);
