import { SESSION_CLASS } from '#common/session-mark.ts';

/** Marks the page of a browser with a session, until main.tsx has decided what to draw. */
export { SESSION_CLASS };

/**
 * The one inline script of '/' (docs/decisions/033-landing-page-drawn-at-build.md), in its head, so it runs before
 * anything is drawn: '/' arrives with the landing page in it, which an owner's browser must not flash before it
 * draws the owner's home. It asks what `readSession()` asks (its test holds the two together), and
 * landing.css hides #root while the mark is on. Allowed by its hash (the server reads it from the page).
 */
export const SESSION_GATE_SCRIPT = `try{var s=localStorage;if(s.getItem("easyId")&&s.getItem("id")&&s.getItem("token"))document.documentElement.classList.add("${SESSION_CLASS}")}catch(e){}`;
