import { useEffect } from 'react';

/** Seconds the thank-you stays on screen before the owner's address opens: long enough to read it. */
export const REDIRECT_SECONDS = 5;

/** Only an absolute http(s) address is followed; the server refuses others, this guards a tampered copy. */
function webUrlOf(text: string): URL | null {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** Says where the customer is going and when, then goes; the link goes at once. */
export function RedirectNotice({ url }: { url: string }) {
  const target = webUrlOf(url);
  const href = target?.href ?? null;
  useEffect(() => {
    if (!href) return;
    const timer = setTimeout(() => location.assign(href), REDIRECT_SECONDS * 1000);
    return () => clearTimeout(timer);
  }, [href]);
  if (!target) return null;
  return (
    <div className="fill-redirect">
      <p role="status">
        Taking you to <strong>{target.host}</strong> in {REDIRECT_SECONDS} seconds…
      </p>
      <a className="button button-primary button-block" href={target.href}>
        Continue now
      </a>
    </div>
  );
}
