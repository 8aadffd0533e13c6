/**
 * The class '/''s head script puts on <html> in a browser with an owner's session (web/landing/session-gate.ts):
 * landing/site-pages.css then hides the landing page drawn at build time, and the page's deferred start
 * (server/html-reply.ts) loads the app at once, since a hidden page has no first paint to wait for.
 */
export const SESSION_CLASS = 'has-session';

/** The script expression that holds in such a browser. */
export const HAS_SESSION_MARK = `document.documentElement.classList.contains("${SESSION_CLASS}")`;
