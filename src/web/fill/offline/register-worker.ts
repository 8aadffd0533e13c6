/**
 * The customer's pages, and only they, install the offline worker (docs/decisions/025): after the page has loaded,
 * so its download never competes with the form's.
 */
export function registerWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  // The link's page starts this script after its load event and first paint (server/customer-page.ts deferEntry).
  if (document.readyState === 'complete') register();
  else addEventListener('load', register);
}
