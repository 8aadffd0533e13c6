import { useEffect, useRef, useState } from 'react';
import type { Screen } from './customer-screens.ts';
import { loadScreen } from './customer-screens.ts';
import { onNavigate } from './fill-navigation.ts';

/**
 * The customer's pages as one small app: each navigation loads the next screen, and the current one stays until
 * it is ready, as a router with loaders would do.
 */
export function CustomerApp({ first }: { first: Screen }) {
  const [screen, setScreen] = useState(first);
  // The screen shown, for the listener: a paged form's screen follows its own pages.
  const shown = useRef(first);
  useEffect(() => {
    let latest = 0;
    return onNavigate(() => {
      if (shown.current.follows?.test(location.pathname)) return;
      const id = ++latest;
      void loadScreen(location.pathname).then((next) => {
        if (id !== latest) return;
        if (next?.address) history.replaceState(null, '', next.address);
        if (next) {
          shown.current = next;
          setScreen(next);
        } else location.reload(); // a page of the owner's app: let the server serve it
      });
    });
  }, []);
  const { Page, data } = screen;
  return <Page data={data} />;
}
