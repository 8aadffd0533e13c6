/**
 * A fresh key per submit attempt. crypto.randomUUID exists only on HTTPS and localhost, and a self-hosted server is
 * often reached over plain HTTP on a LAN, so fall back to getRandomValues, which works everywhere.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
