import { SESSION_CLASS } from '#common/session-mark.ts';

/** Marks the page of a browser with a session, until main.tsx has decided what to draw. */
export { SESSION_CLASS };

/**
 * The inline script in the head of '/' (docs/decisions/033-landing-page-drawn-at-build.md), so it runs before
 * anything is drawn: '/' arrives with the landing page in it, which an owner's browser must not flash before it
 * draws the owner's home. It asks what `readSession()` asks (its test holds the two together), and
 * site-pages.css hides #root while the mark is on. It declares nothing (a classic script's `var` would be a global).
 * Allowed by its hash (the server reads it from the page).
 */
export const SESSION_GATE_SCRIPT = `try{if(["easyId","id","token"].every(k=>localStorage.getItem(k)))document.documentElement.classList.add("${SESSION_CLASS}")}catch(e){}`;
