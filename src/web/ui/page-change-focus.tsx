import { useEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';

/** How long a page change waits for the new screen's heading (its chunk and its data may still be loading). */
const HEADING_WAIT_MS = 5_000;

/**
 * The router's root: after every change of page (sign-up to "check your email", login to the create page, a
 * template to the editor, the editor to Settings), focus moves to the new screen's main heading, so keyboard and
 * screen-reader users start where the page starts instead of on the page's body (WCAG 2.4.3). Not on the first
 * page of a visit, where the browser starts at the top itself, nor on a change of the query alone (a tab of the
 * dashboard keeps focus on the tab), nor when the new screen has already put focus somewhere inside it.
 */
export function PageChangeFocus() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frame = 0;
    const until = performance.now() + HEADING_WAIT_MS;
    const look = () => {
      const focused = document.activeElement;
      const settled = focused && focused !== document.body && !focused.closest('.site-header');
      const heading = document.querySelector<HTMLElement>('main h1, h1');
      if (settled) return;
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
        return;
      }
      if (performance.now() < until) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);
  return <Outlet />;
}
