import { useEffect } from 'react';

export const PRODUCT_TITLE = 'Easy Form';

/**
 * The tab's title for the screen being shown: "<what> — Easy Form", or the product's name alone while `what` is not
 * known yet (a form's name still loading). Each screen calls it once; the title changes with the screen, so a
 * screen-reader user hears where a page change took them (WCAG 2.4.2).
 */
export function useScreenTitle(what: string | undefined): void {
  const title = what ? `${what} — ${PRODUCT_TITLE}` : PRODUCT_TITLE;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
