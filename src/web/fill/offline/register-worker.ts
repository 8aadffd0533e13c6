/**
 * The customer's pages, and only they, install the offline worker (docs/decisions/025): after the page has loaded,
 * so its download never competes with the form's.
 */
export function registerWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined));
}
