/**
 * The customer's pages move between /preview and /fileUpload with the History API alone: three screens do not need
 * a router library (docs/decisions/012-customer-entry.md).
 */
const listeners = new Set<() => void>();

export function navigate(path: string, options: { state?: unknown; replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(options.state ?? null, '', path);
  else history.pushState(options.state ?? null, '', path);
  for (const listener of listeners) listener();
}

/** Calls `listener` after every navigation, ours or the browser's Back and Forward; returns the unsubscribe. */
export function onNavigate(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

/** The state the last navigation left in the history entry. */
export const navigationState = (): unknown => history.state;
